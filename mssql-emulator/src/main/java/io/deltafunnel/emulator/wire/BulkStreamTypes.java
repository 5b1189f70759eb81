package io.deltafunnel.emulator.wire;

import io.deltafunnel.emulator.semantics.SqlType;
import io.deltafunnel.tds.DecimalCodec;
import io.deltafunnel.tds.TypeId;
import io.deltafunnel.tds.TypeInfo;
import io.deltafunnel.tds.VectorCodec;

/**
 * Which TYPE_INFO a BULK_LOAD COLMETADATA may carry for a type declared in {@code INSERT BULK}. SQL Server answers
 * 4816 ("Invalid column type from bcp client for colid N.") when they differ. Accepted: the fixed-length or the
 * nullable (…N) form of the declared type with its byte length; decimal/numeric as DECIMALN or NUMERICN with the
 * declared precision and scale; temporal types with the declared scale; character and binary types with at most the
 * declared length (in bytes; 0xFFFF, i.e. PLP, exactly for (max)); text, ntext and image as TEXT, NTEXT and IMAGE only. The
 * collation of a character column and the NULLABLE flag are not compared.
 */
public final class BulkStreamTypes {
    private BulkStreamTypes() {
    }

    public static boolean matches(SqlType declared, TypeInfo wire) {
        int id = wire.typeId();
        int len = wire.maxLength();
        switch (declared.base()) {
            case BIT: return id == TypeId.BIT || id == TypeId.BITN && len == 1;
            case TINYINT: return id == TypeId.INT1 || id == TypeId.INTN && len == 1;
            case SMALLINT: return id == TypeId.INT2 || id == TypeId.INTN && len == 2;
            case INT: return id == TypeId.INT4 || id == TypeId.INTN && len == 4;
            case BIGINT: return id == TypeId.INT8 || id == TypeId.INTN && len == 8;
            case REAL: return id == TypeId.FLT4 || id == TypeId.FLTN && len == 4;
            case FLOAT: return id == TypeId.FLT8 || id == TypeId.FLTN && len == 8;
            case MONEY: return id == TypeId.MONEY || id == TypeId.MONEYN && len == 8;
            case SMALLMONEY: return id == TypeId.MONEY4 || id == TypeId.MONEYN && len == 4;
            case DATETIME: return id == TypeId.DATETIME || id == TypeId.DATETIMN && len == 8;
            case SMALLDATETIME: return id == TypeId.DATETIM4 || id == TypeId.DATETIMN && len == 4;
            case DECIMAL:
            case NUMERIC:
                return (id == TypeId.DECIMALN || id == TypeId.NUMERICN || id == TypeId.DECIMAL
                        || id == TypeId.NUMERIC)
                        && wire.precision() == declared.precision() && wire.scale() == declared.scale()
                        && len >= DecimalCodec.lengthForPrecision(declared.precision()) && len <= 17;
            case DATE: return id == TypeId.DATEN;
            case TIME: return id == TypeId.TIMEN && wire.scale() == declared.scale();
            case DATETIME2: return id == TypeId.DATETIME2N && wire.scale() == declared.scale();
            case DATETIMEOFFSET: return id == TypeId.DATETIMEOFFSETN && wire.scale() == declared.scale();
            case CHAR: return id == TypeId.BIGCHAR && fits(declared, len, 1);
            case VARCHAR: return id == TypeId.BIGVARCHAR && fits(declared, len, 1);
            case NCHAR: return id == TypeId.NCHAR && fits(declared, len, 2);
            case NVARCHAR: return id == TypeId.NVARCHAR && fits(declared, len, 2);
            case BINARY: return id == TypeId.BIGBINARY && fits(declared, len, 1);
            case VARBINARY: return id == TypeId.BIGVARBINARY && fits(declared, len, 1);
            case TEXT: return id == TypeId.TEXT;
            case NTEXT: return id == TypeId.NTEXT;
            case IMAGE: return id == TypeId.IMAGE;
            case UNIQUEIDENTIFIER: return id == TypeId.GUID && len == 16;
            // json: its text as (n)varchar, as mssql-jdbc sends it, or the json type itself
            case JSON: return id == TypeId.JSON || id == TypeId.BIGVARCHAR || id == TypeId.NVARCHAR;
            case VECTOR:
                return id == TypeId.VECTOR && len == VectorCodec.maxLength(declared.length())
                        && wire.scale() == VectorCodec.DIMENSION_FLOAT32;
            default: return false;
        }
    }

    /**
     * PLP exactly for (max); otherwise a wire length up to the declared one (mssql-jdbc declares varchar(50) for a
     * temporal value sent as text and sends the value's own shorter length, which SQL Server accepts).
     */
    private static boolean fits(SqlType t, int wireLength, int bytesPerUnit) {
        if (t.isMax() || wireLength == TypeId.USHORT_MAX) {
            return t.isMax() && wireLength == TypeId.USHORT_MAX;
        }
        return wireLength >= 1 && wireLength <= bytesPerUnit * t.length();
    }
}
