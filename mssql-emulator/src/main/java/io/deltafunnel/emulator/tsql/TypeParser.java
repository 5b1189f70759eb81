package io.deltafunnel.emulator.tsql;

import io.deltafunnel.emulator.semantics.ErrorCatalog;
import io.deltafunnel.emulator.semantics.SqlServerError;
import io.deltafunnel.emulator.semantics.SqlType;
import java.util.List;

/** Parses SQL Server type declarations such as {@code nvarchar(max)}, {@code decimal(38, 10)}, {@code time(3)}. */
public final class TypeParser {
    /** A parsed type and the index of the first token after it. */
    public static final class Result {
        public final SqlType type;
        public final int next;

        Result(SqlType type, int next) {
            this.type = type;
            this.next = next;
        }
    }

    /** SQL Server types the emulator knows by name but refuses ("not supported"), see README. */
    private static final java.util.Set<String> UNSUPPORTED_TYPES =
            java.util.Set.of("sql_variant", "geography", "geometry", "hierarchyid");

    private TypeParser() {
    }

    /**
     * Applies a column's {@code COLLATE name} to {@code type}: 447 for a non-character type; "not supported" for a
     * collation whose code page the emulator cannot map (only code page 1252 Latin1 collations are known, see
     * tds-codec's {@code Collation.forName}; the _UTF8 ones are refused too).
     */
    static SqlType collate(SqlType type, Token name, String column) throws SqlServerError {
        if (!name.isIdentifier()) {
            throw SqlServerError.syntax(name.text());
        }
        if (!type.isCharacter()) {
            throw ErrorCatalog.COLLATE_INVALID_TYPE.error(
                    "Expression type " + type.name() + " is invalid for COLLATE clause.");
        }
        io.deltafunnel.tds.Collation c = io.deltafunnel.tds.Collation.forName(name.value());
        if (c == null || c.isUtf8()) {
            throw SqlServerError.unsupported("collation '" + name.value() + "'" + (column == null ? ""
                    : " (column '" + column + "')") + ": only the code page 1252 collations"
                    + " SQL_Latin1_General_CP1_CI_AS/_CS_AS/_CI_AI and Latin1_General[_100|_140]_* are mapped");
        }
        return type.withCollation(c);
    }

    /** True if the word names a SQL Server type the emulator knows. */
    public static boolean isTypeName(Token t) {
        return t != null && t.isIdentifier() && base(t.value()) != null;
    }

    private static SqlType.Base base(String name) {
        switch (name.toLowerCase(java.util.Locale.ROOT)) {
            case "bit": return SqlType.Base.BIT;
            case "tinyint": return SqlType.Base.TINYINT;
            case "smallint": return SqlType.Base.SMALLINT;
            case "int": case "integer": return SqlType.Base.INT;
            case "bigint": return SqlType.Base.BIGINT;
            case "real": return SqlType.Base.REAL;
            case "float": return SqlType.Base.FLOAT;
            case "decimal": case "dec": return SqlType.Base.DECIMAL;
            case "numeric": return SqlType.Base.NUMERIC;
            case "money": return SqlType.Base.MONEY;
            case "smallmoney": return SqlType.Base.SMALLMONEY;
            case "date": return SqlType.Base.DATE;
            case "time": return SqlType.Base.TIME;
            case "datetime": return SqlType.Base.DATETIME;
            case "smalldatetime": return SqlType.Base.SMALLDATETIME;
            case "datetime2": return SqlType.Base.DATETIME2;
            case "datetimeoffset": return SqlType.Base.DATETIMEOFFSET;
            case "char": case "character": return SqlType.Base.CHAR;
            case "varchar": return SqlType.Base.VARCHAR;
            case "nchar": return SqlType.Base.NCHAR;
            case "nvarchar": case "sysname": return SqlType.Base.NVARCHAR;
            case "text": return SqlType.Base.TEXT;
            case "ntext": return SqlType.Base.NTEXT;
            case "binary": return SqlType.Base.BINARY;
            case "varbinary": return SqlType.Base.VARBINARY;
            case "image": return SqlType.Base.IMAGE;
            case "uniqueidentifier": return SqlType.Base.UNIQUEIDENTIFIER;
            case "xml": return SqlType.Base.XML;
            case "json": return SqlType.Base.JSON;
            case "vector": return SqlType.Base.VECTOR;
            default: return null;
        }
    }

    /**
     * Parses a type starting at {@code i}. {@code defaultCharLength} is 1 in declarations and 30 in CAST/CONVERT.
     */
    public static Result parse(List<Token> toks, int i, int defaultCharLength, String columnForMessages)
            throws SqlServerError {
        Token t = toks.get(i);
        if (t.is("dbo") || t.is("sys")) {
            if (i + 2 < toks.size() && toks.get(i + 1).isSymbol(".")) {
                i += 2;
                t = toks.get(i);
            }
        }
        SqlType.Base b = t.isIdentifier() ? base(t.value()) : null;
        if (b == null && t.isIdentifier() && UNSUPPORTED_TYPES.contains(t.value().toLowerCase(java.util.Locale.ROOT))) {
            throw SqlServerError.unsupported("data type " + t.value().toLowerCase(java.util.Locale.ROOT)
                    + (columnForMessages == null ? "" : " (column '" + columnForMessages + "')")
                    + "; sql_variant and the CLR types geography, geometry and hierarchyid cannot be stored");
        }
        if (b == null) {
            throw ErrorCatalog.UNKNOWN_DATA_TYPE.error(
                    "Column, parameter, or variable" + (columnForMessages == null ? "" : " '" + columnForMessages
                            + "'") + ": Cannot find data type " + t.value() + ".");
        }
        boolean sysname = t.value().equalsIgnoreCase("sysname");
        i++;
        if (t.is("character") && i < toks.size() && toks.get(i).is("varying")) {
            b = SqlType.Base.VARCHAR;
            i++;
        }
        Integer a1 = null;
        Integer a2 = null;
        boolean max = false;
        if (i < toks.size() && toks.get(i).isSymbol("(")) {
            i++;
            Token arg = toks.get(i);
            if (arg.is("max")) {
                max = true;
            } else if (arg.kind() == Token.Kind.NUMBER) {
                a1 = parseInt(arg.text());
            } else {
                throw SqlServerError.syntax(arg.text());
            }
            i++;
            if (toks.get(i).isSymbol(",")) {
                i++;
                if (b == SqlType.Base.VECTOR && toks.get(i).isIdentifier()) {
                    // vector(n, float32) is vector(n); float16 is a SQL Server 2025 preview feature
                    if (!toks.get(i).is("float32")) {
                        throw SqlServerError.unsupported("vector base type " + toks.get(i).text()
                                + " (float16 vectors are a SQL Server preview feature; only float32 is stored)");
                    }
                } else {
                    a2 = parseInt(toks.get(i).text());
                }
                i++;
            }
            if (!toks.get(i).isSymbol(")")) {
                throw SqlServerError.syntax(toks.get(i).text());
            }
            i++;
        }
        if (sysname) {
            return new Result(SqlType.withLength(SqlType.Base.NVARCHAR, 128), i);
        }
        return new Result(build(b, a1, a2, max, defaultCharLength, columnForMessages), i);
    }

    private static int parseInt(String s) throws SqlServerError {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            throw SqlServerError.syntax(s);
        }
    }

    private static SqlType build(SqlType.Base b, Integer a1, Integer a2, boolean max, int defaultCharLength,
            String col) throws SqlServerError {
        String c = col == null ? "" : col;
        switch (b) {
            case DECIMAL:
            case NUMERIC: {
                int p = a1 == null ? 18 : a1;
                int s = a2 == null ? 0 : a2;
                if (p < 1 || p > 38) {
                    throw ErrorCatalog.PRECISION_TOO_LARGE.error(
                            "Column or parameter '" + c + "': Specified column precision "
                            + p + " is greater than the maximum precision of 38.");
                }
                if (s < 0 || s > p) {
                    throw ErrorCatalog.SCALE_OUT_OF_RANGE.error("The scale (" + s + ") for column '" + c
                            + "' must be within the range 0 to " + p + ".");
                }
                return SqlType.decimal(b, p, s);
            }
            case FLOAT:
                return SqlType.floatOf(a1 == null ? 53 : a1);
            case TIME:
            case DATETIME2:
            case DATETIMEOFFSET: {
                int s = a1 == null ? 7 : a1;
                if (s < 0 || s > 7) {
                    throw ErrorCatalog.INVALID_SCALE.error("Line 1: Specified scale " + s + " is invalid.");
                }
                return SqlType.withScale(b, s);
            }
            case CHAR:
            case VARCHAR:
            case BINARY:
            case VARBINARY:
            case NCHAR:
            case NVARCHAR: {
                boolean unicode = b == SqlType.Base.NCHAR || b == SqlType.Base.NVARCHAR;
                int limit = unicode ? 4000 : 8000;
                if (max) {
                    if (b == SqlType.Base.CHAR || b == SqlType.Base.NCHAR || b == SqlType.Base.BINARY) {
                        throw SqlServerError.syntax("max");
                    }
                    return SqlType.withLength(b, SqlType.MAX);
                }
                int n = a1 == null ? defaultCharLength : a1;
                if (n < 1 || n > limit) {
                    throw ErrorCatalog.COLUMN_SIZE_TOO_LARGE.error("The size (" + n + ") given to the column '" + c
                            + "' exceeds the maximum allowed for any data type (" + limit + ").");
                }
                return SqlType.withLength(b, n);
            }
            case VECTOR:
                return vector(a1, a2, c);
            default:
                return SqlType.of(b);
        }
    }

    /**
     * vector(n): 1 to 1998 float32 dimensions (vector(n, float32) is the same type; float16 is refused above).
     */
    private static SqlType vector(Integer n, Integer baseTypeArg, String col) throws SqlServerError {
        if (n == null) {
            throw SqlServerError.unsupported("vector without a dimension count" + (col.isEmpty() ? ""
                    : " (column '" + col + "')"));
        }
        if (baseTypeArg != null) {
            throw SqlServerError.syntax(Integer.toString(baseTypeArg));
        }
        if (n < 1 || n > io.deltafunnel.tds.VectorCodec.MAX_FLOAT32_DIMENSIONS) {
            throw SqlServerError.unsupported("vector(" + n + ") (column '" + col + "'): a float32 vector has 1 to "
                    + io.deltafunnel.tds.VectorCodec.MAX_FLOAT32_DIMENSIONS + " dimensions");
        }
        return SqlType.withLength(SqlType.Base.VECTOR, n);
    }
}
