package io.deltafunnel.emulator.wire;

import io.deltafunnel.tds.TypeId;
import io.deltafunnel.tds.TypeInfo;

/** A typed value bound to a T-SQL variable (an RPC parameter). */
public final class SqlParam {
    public final String name;
    public final TypeInfo type;
    public final Object value;
    final boolean output;

    public SqlParam(String name, TypeInfo type, Object value, boolean output) {
        this.name = name;
        this.type = type;
        this.value = value;
        this.output = output;
    }

    /** The H2 type used to CAST the JDBC parameter so that H2 can type the expression. */
    public String h2CastType() {
        switch (type.typeId()) {
            case TypeId.INT1:
            case TypeId.INT2:
                return "SMALLINT";
            case TypeId.INT4:
                return "INTEGER";
            case TypeId.INT8:
                return "BIGINT";
            case TypeId.INTN:
                return type.maxLength() == 8 ? "BIGINT" : type.maxLength() == 4 ? "INTEGER" : "SMALLINT";
            case TypeId.BIT:
            case TypeId.BITN:
                return "BOOLEAN";
            case TypeId.FLT4:
                return "REAL";
            case TypeId.FLT8:
                return "DOUBLE PRECISION";
            case TypeId.FLTN:
                return type.maxLength() == 4 ? "REAL" : "DOUBLE PRECISION";
            case TypeId.MONEY:
            case TypeId.MONEY4:
            case TypeId.MONEYN:
                return "NUMERIC(19,4)";
            case TypeId.DECIMAL:
            case TypeId.NUMERIC:
            case TypeId.DECIMALN:
            case TypeId.NUMERICN:
                return "NUMERIC(" + Math.max(1, type.precision()) + "," + type.scale() + ")";
            case TypeId.DATEN:
                return "DATE";
            case TypeId.TIMEN:
                return "TIME(" + type.scale() + ")";
            case TypeId.DATETIME2N:
                return "TIMESTAMP(" + type.scale() + ")";
            case TypeId.DATETIMEOFFSETN:
                return "TIMESTAMP(" + type.scale() + ") WITH TIME ZONE";
            case TypeId.DATETIME:
            case TypeId.DATETIM4:
            case TypeId.DATETIMN:
                return "TIMESTAMP(3)";
            case TypeId.GUID:
                return "UUID";
            case TypeId.BIGVARBINARY:
            case TypeId.BIGBINARY:
            case TypeId.IMAGE:
                return type.isPlp() || type.typeId() == TypeId.IMAGE ? "BINARY LARGE OBJECT" : "VARBINARY";
            case TypeId.BIGVARCHAR:
            case TypeId.BIGCHAR:
            case TypeId.NVARCHAR:
            case TypeId.NCHAR:
            case TypeId.TEXT:
            case TypeId.NTEXT:
                return type.isPlp() || type.typeId() == TypeId.TEXT || type.typeId() == TypeId.NTEXT
                        ? "CHARACTER LARGE OBJECT" : "VARCHAR";
            default:
                return null;
        }
    }
}
