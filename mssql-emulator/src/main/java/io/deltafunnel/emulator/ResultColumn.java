package io.deltafunnel.emulator;

import io.deltafunnel.tds.TokenWriter;

/** A result set column as announced to the client: name, SQL Server type and flags. */
final class ResultColumn {
    final String name;
    final SqlType type;
    final boolean nullable;
    final boolean identity;

    ResultColumn(String name, SqlType type, boolean nullable, boolean identity) {
        this.name = name;
        this.type = type;
        this.nullable = nullable;
        this.identity = identity;
    }

    TokenWriter.Column toTds() {
        int flags = TokenWriter.FLAG_UPDATEABLE_UNKNOWN;
        if (nullable) {
            flags |= TokenWriter.FLAG_NULLABLE;
        }
        if (identity) {
            flags |= TokenWriter.FLAG_IDENTITY;
        }
        return new TokenWriter.Column(name, type.typeInfo(), flags);
    }
}
