package dev.parq.source.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The age of the oldest split a reader holds unread: zero with none, the oldest one's otherwise. */
class UnreadAgeTest {

    private static final long GAP = 200;

    @Test
    void isZeroWithNothingQueuedAndGrowsWithTheOldestSplit() throws Exception {
        UnreadAge age = new UnreadAge();
        assertEquals(0, age.millis());
        age.arrived(2);
        Thread.sleep(GAP);
        assertTrue(age.millis() >= GAP, "two splits waiting: " + age.millis());
        long first = age.taken();
        age.reading(first);
        Thread.sleep(GAP);
        age.arrived(1);
        assertTrue(age.millis() >= 2 * GAP, "the split being read is the oldest: " + age.millis());
        age.finished();
        long second = age.millis();
        assertTrue(second >= 2 * GAP, "the second split came with the first: " + second);
        age.reading(age.taken());
        age.finished();
        long third = age.millis();
        // The third came 2 * GAP after the second: younger by that much, less what the clock moved since.
        assertTrue(third <= second - GAP, "the third split came later: " + third + " against " + second);
        age.reading(age.taken());
        age.finished();
        assertEquals(0, age.millis(), "all read");
    }

    @Test
    void anEmptyQueueTakenFromLeavesNothingOld() {
        UnreadAge age = new UnreadAge();
        age.arrived(1);
        age.taken();
        age.finished();
        assertEquals(0, age.millis());
    }
}
