package dev.parq.job.mutation;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What a defect keeps that parq lets go of: held here, it is never collected, so a leak shows as it
 * would if parq kept the reference itself (the JVM closes the descriptor of a channel it collects).
 */
public final class Leaked {

    public static final List<Object> KEPT = Collections.synchronizedList(new ArrayList<>());

    private Leaked() {}
}
