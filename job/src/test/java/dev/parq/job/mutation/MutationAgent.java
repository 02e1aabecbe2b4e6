package dev.parq.job.mutation;

import java.lang.instrument.Instrumentation;

/**
 * The Java agent of {@link AgentJar}: {@code -javaagent:<jar>=<NAME>} puts the {@link Mutation} of
 * that name into the process before parq's classes are loaded.
 */
public final class MutationAgent {

    private MutationAgent() {}

    public static void premain(String mutation, Instrumentation instrumentation) {
        Mutation.valueOf(mutation).installOn(instrumentation);
    }
}
