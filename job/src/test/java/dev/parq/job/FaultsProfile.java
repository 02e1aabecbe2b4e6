package dev.parq.job;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A test that runs in the long suite only, {@code mvn verify -Pfaults}: the mutation twins, which
 * show that a fault test fails on a parq process with the defect it looks for, and cases whose repetition
 * adds confidence more than coverage. The suite every build runs keeps one short case of each
 * fault; the profile sets the JVM property {@link #PROPERTY} for failsafe, and a test that repeats a
 * fault reads {@link #ON} to run its long version there.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@EnabledIfSystemProperty(named = FaultsProfile.PROPERTY, matches = "true",
        disabledReason = "in the long suite only: mvn verify -Pfaults")
@interface FaultsProfile {

    String PROPERTY = "parq.test.faults";

    /** Whether this is a run of the long suite. */
    boolean ON = Boolean.getBoolean(PROPERTY);
}
