package dev.parq.job.embedded;

import static org.junit.jupiter.api.Assertions.assertSame;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.rpc.RpcSystem;
import org.junit.jupiter.api.Test;

/** Flink's RPC system as the embedded cluster gets it: from parq's class path, not an extracted jar. */
class ClassPathRpcSystemLoaderTest {

    @Test
    void flinkLoadsItsRpcSystemFromTheClassPath() {
        // Flink's own loader would define the system's classes in a class loader of its own, over a
        // copy of flink-rpc-akka extracted to a temporary file.
        try (RpcSystem rpc = RpcSystem.load(new Configuration())) {
            assertSame(ClassPathRpcSystemLoader.class.getClassLoader(), rpc.getClass().getClassLoader(),
                    rpc.getClass().getName() + " was loaded by " + rpc.getClass().getClassLoader());
        }
    }
}
