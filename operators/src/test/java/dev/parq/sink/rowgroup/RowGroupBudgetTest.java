package dev.parq.sink.rowgroup;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class RowGroupBudgetTest {

    private static final long MB = 1L << 20;

    @Test
    void writersShareTheBudgetAndNeverExceedTheConfiguredSize() {
        RowGroupBudget budget = new RowGroupBudget(200 * MB);
        assertEquals(64 * MB, budget.rowGroupSize(64 * MB), "no writer open yet");
        budget.join();
        assertEquals(64 * MB, budget.rowGroupSize(64 * MB));
        assertEquals(200 * MB, budget.rowGroupSize(1024 * MB));
        budget.join();
        budget.join();
        budget.join();
        assertEquals(50 * MB, budget.rowGroupSize(64 * MB), "four writers");
        for (int i = 0; i < 96; i++) {
            budget.join();
        }
        assertEquals(2 * MB, budget.rowGroupSize(64 * MB), "a hundred writers");
        for (int i = 0; i < 900; i++) {
            budget.join();
        }
        assertEquals(RowGroupBudget.MIN_ROW_GROUP, budget.rowGroupSize(64 * MB), "a thousand writers");
        for (int i = 0; i < 999; i++) {
            budget.leave();
        }
        assertEquals(64 * MB, budget.rowGroupSize(64 * MB), "one writer left");
    }
}
