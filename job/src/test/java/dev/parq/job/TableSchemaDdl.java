package dev.parq.job;

import dev.parq.schema.TableSchema;

/** The DDL text parq prints for a schema, to compare manifests against. */
final class TableSchemaDdl {
    private TableSchemaDdl() {}

    static String normalized(String ddl) {
        return TableSchema.parse(ddl).toDdl();
    }
}
