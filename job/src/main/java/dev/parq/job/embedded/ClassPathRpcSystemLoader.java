package dev.parq.job.embedded;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.rpc.RpcSystem;
import org.apache.flink.runtime.rpc.RpcSystemLoader;

import java.util.ServiceLoader;

/**
 * Loads Flink's RPC system (Pekko) from parq.jar itself instead of from the copy that Flink
 * extracts to a temporary file and loads through a class loader of its own on every start.
 *
 * <p>parq.jar bundles flink-rpc-akka, so the embedded cluster's RPC classes are loaded like all the
 * others: the JVM's class data sharing archive or AOT cache (see the {@code parq} launcher) holds
 * them, and starting the cluster no longer copies a 21 MB jar to {@code /tmp} and defines its
 * classes one by one. Where the RPC system is not on the class path (a Flink cluster runs the thin
 * parq-job.jar, whose classes Flink's own loader never asks), this loader fails and Flink falls
 * back to its own.
 */
public final class ClassPathRpcSystemLoader implements RpcSystemLoader {

    /** Tried before Flink's own loader, which has priority 0. */
    @Override
    public int getLoadPriority() {
        return -1;
    }

    @Override
    public RpcSystem loadRpcSystem(Configuration config) {
        return ServiceLoader.load(RpcSystem.class, ClassPathRpcSystemLoader.class.getClassLoader())
                .findFirst()
                .orElseThrow(() -> new IllegalStateException(
                        "no RpcSystem on parq's class path (flink-rpc-akka is not bundled)"));
    }
}
