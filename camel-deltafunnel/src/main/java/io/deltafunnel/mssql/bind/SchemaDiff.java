package io.deltafunnel.mssql.bind;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.deltafunnel.arrow.read.ArrowColumnType;
import io.deltafunnel.arrow.read.ArrowColumnTypes;
import io.deltafunnel.arrow.read.UnsupportedArrowTypeException;
import io.deltafunnel.arrow.read.ValueKind;
import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.SchemaEvolution;

import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * How the source's Arrow schema and the target table differ, found before anything is written: the source columns
 * the target lacks (with the type {@code createTable} would give them), the columns whose target type is narrower than
 * the source's (with the widened type), and what no schema evolution can fix (an unsupported Arrow type, a type no
 * widening makes acceptable, a NOT NULL target column without source). Plain data; {@link #problems} says what a
 * given {@link SchemaEvolution} mode leaves refused.
 *
 * <p>Widening only ever widens: a wider integer (int to bigint), integers to float (tinyint, smallint, int only,
 * exact) or decimal, decimal precision or scale (never fewer integer digits, at most 38), real to float, varchar and
 * char to nvarchar and nchar (the source is text), a longer fixed-width binary, more fractional seconds (datetime2,
 * time, datetimeoffset), date, datetime and smalldatetime to datetime2. The length of a variable-length string or
 * binary is not in the Arrow schema, so such a column is not lengthened (a value too long is refused by the value
 * checks, naming column and row).
 */
public record SchemaDiff(List<Missing> missing, List<Widening> widenings, List<String> unfixable) {

    /** A source column the target lacks: it would be added as {@code [target] type NULL}. */
    public record Missing(String source, String target, String type) {
    }

    /**
     * A target column narrower than the source's type.
     *
     * @param needed the source cannot go into the column as it is (not only possibly out of range for some values)
     * @param reason why the current type does not take the source, when {@code needed}
     */
    public record Widening(String source, TargetColumn column, String newType, boolean needed, String reason) {
    }

    public SchemaDiff {
        missing = List.copyOf(missing);
        widenings = List.copyOf(widenings);
        unfixable = List.copyOf(unfixable);
    }

    /** Nothing to add, widen or refuse. */
    public boolean empty() {
        return missing.isEmpty() && widenings.isEmpty() && unfixable.isEmpty();
    }

    /**
     * The diff of {@code schema} (the batches' data columns) against {@code table}, with the explicit column mapping.
     *
     * @param temporalAsText the connection's sendTemporalDataTypesAsStringForBulkCopy (decides which bindings exist)
     */
    public static SchemaDiff of(Schema schema, TargetTable table, Map<String, String> explicit, boolean temporalAsText,
            BulkLoadException.Context ctx) {
        List<String> targets = ColumnMapper.targetNames(schema, explicit, ctx);
        List<Missing> missing = new ArrayList<>();
        List<Widening> widenings = new ArrayList<>();
        List<String> unfixable = new ArrayList<>();
        Set<String> used = new HashSet<>();
        for (int i = 0; i < schema.getFields().size(); i++) {
            Field field = schema.getFields().get(i);
            String targetName = targets.get(i);
            ArrowColumnType type;
            try {
                type = ArrowColumnTypes.forField(field);
            } catch (UnsupportedArrowTypeException e) {
                unfixable.add("source column '" + field.getName() + "': " + e.reason());
                continue;
            }
            TargetColumn column = table.column(targetName);
            if (column == null) {
                missing.add(new Missing(field.getName(), targetName, type.createTableType()));
                used.add(ColumnMapper.lower(targetName));
                continue;
            }
            used.add(ColumnMapper.lower(column.name()));
            String reason = null;
            try {
                TargetBinding.of(type.kind(), column, temporalAsText);
            } catch (IllegalArgumentException e) {
                reason = e.getMessage();
            }
            String wider = column.identity() ? null : widerType(column, type.createTableType(), type.kind());
            if (wider != null) {
                TargetColumn widened = withType(column, wider);
                boolean accepted;
                try {
                    TargetBinding.of(type.kind(), widened, temporalAsText);
                    accepted = true;
                } catch (IllegalArgumentException e) {
                    accepted = false;
                }
                if (accepted) {
                    widenings.add(new Widening(field.getName(), column, wider, reason != null, reason));
                    continue;
                }
            }
            if (reason != null) {
                unfixable.add("source column '" + field.getName() + "' (" + field.getType()
                        + ") cannot go into target column '" + column.name() + "': " + reason);
            }
        }
        for (TargetColumn c : table.columns()) {
            if (!c.nullable() && !c.serverFilled() && !used.contains(ColumnMapper.lower(c.name()))) {
                unfixable.add("NOT NULL target column '" + c.name() + "' of " + table.name()
                        + " has no source column (it has no default; evolution never drops or changes it)");
            }
        }
        return new SchemaDiff(missing, widenings, unfixable);
    }

    /** What {@code mode} leaves refused: every item, one line each; empty when the run can go ahead. */
    public List<String> problems(SchemaEvolution mode, TargetTable table) {
        List<String> out = new ArrayList<>();
        if (mode == SchemaEvolution.NONE) {
            for (Missing m : missing) {
                out.add("source column '" + m.source() + "' has no target column"
                        + (m.target().equals(m.source()) ? "" : " '" + m.target() + "'") + " in " + table.name()
                        + " (addColumns would add it as " + m.type() + " NULL)");
            }
        }
        if (mode != SchemaEvolution.WIDEN) {
            for (Widening w : widenings) {
                if (w.needed()) {
                    out.add("source column '" + w.source() + "' cannot go into target column '" + w.column().name()
                            + "' " + w.column().typeText() + ": " + w.reason() + " (widen would alter it to "
                            + w.newType() + ")");
                }
            }
        }
        out.addAll(unfixable);
        return out;
    }

    private static final List<String> INTEGERS = List.of("tinyint", "smallint", "int", "bigint");
    private static final int[] INTEGER_DIGITS = {3, 5, 10, 19};

    /**
     * The type {@code target} widens to so that values of {@code sourceType} (createTable's type for the source,
     * e.g. {@code bigint}, {@code decimal(12,2)}, {@code datetime2(6)}) fit by type, or null when the target already
     * takes them or no widening applies.
     */
    static String widerType(TargetColumn target, String sourceType, ValueKind kind) {
        String t = target.dataType();
        String sn = baseName(sourceType);
        int[] sa = args(sourceType);
        int ti = INTEGERS.indexOf(t);
        int si = INTEGERS.indexOf(sn);
        if (ti >= 0) {
            if (si > ti) {
                return sn;
            }
            if (sn.equals("float") && ti <= 2) {
                return "float";
            }
            if (sn.equals("decimal")) {
                return decimal("decimal", INTEGER_DIGITS[ti], 0, sa[0], sa[1]);
            }
            return null;
        }
        switch (t) {
            case "decimal", "numeric" -> {
                int p = target.precision();
                int s = target.scale();
                if (si >= 0) {
                    return decimal(t, p, s, INTEGER_DIGITS[si], 0);
                }
                if (sn.equals("decimal")) {
                    return decimal(t, p, s, sa[0], sa[1]);
                }
                return null;
            }
            case "real" -> {
                return sn.equals("float") ? "float" : null;
            }
            case "varchar", "char" -> {
                if (kind != ValueKind.STRING && kind != ValueKind.JSON) {
                    return null;
                }
                Integer n = target.maxLength();
                String length = n == null || n < 0 || n > 4000 ? "max" : Integer.toString(n);
                if (t.equals("char")) {
                    return length.equals("max") ? "nvarchar(max)" : "nchar(" + length + ")";
                }
                return "nvarchar(" + length + ")";
            }
            case "binary", "varbinary" -> {
                Integer n = target.maxLength();
                if (!sn.equals("varbinary") || sa.length == 0 || n == null || n < 0 || sa[0] <= n) {
                    return null; // a variable-length source (varbinary(max)) says nothing about its lengths
                }
                return t + "(" + sa[0] + ")";
            }
            case "datetime2", "time", "datetimeoffset" -> {
                int p = target.datetimePrecision() == null ? 7 : target.datetimePrecision();
                if (sn.equals(t) && sa.length == 1 && sa[0] > p) {
                    return t + "(" + sa[0] + ")";
                }
                return null;
            }
            case "date", "datetime", "smalldatetime" -> {
                if (sn.equals("datetime2") && sa.length == 1) {
                    return "datetime2(" + (t.equals("date") ? sa[0] : Math.max(sa[0], 3)) + ")";
                }
                return null;
            }
            default -> {
                return null;
            }
        }
    }

    /** decimal(p,s) holding both (p1,s1) and (p2,s2), or null when that is (p1,s1) itself or exceeds 38 digits. */
    private static String decimal(String name, int p1, int s1, int p2, int s2) {
        int s = Math.max(s1, s2);
        int p = Math.max(p1 - s1, p2 - s2) + s;
        if (p > 38 || (p == p1 && s == s1)) {
            return null;
        }
        return name + "(" + p + "," + s + ")";
    }

    private static String baseName(String type) {
        int paren = type.indexOf('(');
        return (paren < 0 ? type : type.substring(0, paren)).trim();
    }

    /** The numeric arguments of {@code type(a,b)}; -1 for max; empty without parentheses. */
    private static int[] args(String type) {
        int open = type.indexOf('(');
        int close = type.lastIndexOf(')');
        if (open < 0 || close < open) {
            return new int[0];
        }
        String[] parts = type.substring(open + 1, close).split(",");
        int[] out = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            String p = parts[i].trim();
            out[i] = p.equalsIgnoreCase("max") ? -1 : Integer.parseInt(p);
        }
        return out;
    }

    /** {@code column} as it would read after {@code ALTER COLUMN ... newType} (nullability and collation kept). */
    static TargetColumn withType(TargetColumn column, String newType) {
        String name = baseName(newType);
        int[] a = args(newType);
        Integer maxLength = null;
        Integer precision = null;
        Integer scale = null;
        Integer datetimePrecision = null;
        switch (name) {
            case "nvarchar", "nchar", "varchar", "char", "varbinary", "binary" -> maxLength = a.length == 0 ? 1 : a[0];
            case "decimal", "numeric" -> {
                precision = a[0];
                scale = a.length > 1 ? a[1] : 0;
            }
            case "datetime2", "time", "datetimeoffset" -> datetimePrecision = a.length == 0 ? 7 : a[0];
            case "tinyint" -> precision = 3;
            case "smallint" -> precision = 5;
            case "int" -> precision = 10;
            case "bigint" -> precision = 19;
            case "float" -> precision = 53;
            default -> {
            }
        }
        return new TargetColumn(column.name(), name, maxLength, precision, scale, datetimePrecision, column.nullable(),
                column.ordinal(), column.collationName(), column.serverFilled(), column.identity());
    }
}
