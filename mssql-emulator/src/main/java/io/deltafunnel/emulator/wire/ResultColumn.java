package io.deltafunnel.emulator.wire;

import io.deltafunnel.emulator.semantics.SqlType;
import io.deltafunnel.tds.TokenWriter;

/** A result set column as announced to the client: name, SQL Server type and flags. */
public final class ResultColumn {
    public final String name;
    public final SqlType type;
    public final boolean nullable;
    public final boolean identity;

    public ResultColumn(String name, SqlType type, boolean nullable, boolean identity) {
        this.name = name;
        this.type = type;
        this.nullable = nullable;
        this.identity = identity;
    }

    TokenWriter.Column toTds() {
        return toTds(true, true);
    }

    /** The column as announced to a client with (or without) the JSONSUPPORT / VECTORSUPPORT features. */
    TokenWriter.Column toTds(boolean jsonFeature, boolean vectorFeature) {
        int flags = TokenWriter.FLAG_UPDATEABLE_UNKNOWN;
        if (nullable) {
            flags |= TokenWriter.FLAG_NULLABLE;
        }
        if (identity) {
            flags |= TokenWriter.FLAG_IDENTITY;
        }
        return new TokenWriter.Column(name, type.typeInfo(jsonFeature, vectorFeature), flags);
    }
}
