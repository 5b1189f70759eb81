package io.deltafunnel.mssql.bind;

import java.sql.Types;
import java.util.EnumSet;
import java.util.Set;

import io.deltafunnel.arrow.read.ArrowColumnType;
import io.deltafunnel.arrow.read.ColumnReader;
import io.deltafunnel.arrow.read.FloatListColumnType;
import io.deltafunnel.arrow.read.ValueKind;
import io.deltafunnel.arrow.read.ValueRejected;
import io.deltafunnel.tds.JsonText;

import microsoft.sql.Vector;

/**
 * The {@link TargetBinding}s of SQL Server 2025's {@code json} and {@code vector(n)} targets.
 *
 * <p>json takes Utf8 text that is one JSON value (anything else is a {@link Rejection#NOT_JSON} rejection) and the
 * nested types (List, Struct, Map) as the producer's JSON rendering, which is always valid. mssql-jdbc gets the text
 * as nvarchar(max) (the driver's bulk copy sends (n)varchar text for json columns, and SQL Server converts it).
 *
 * <p>vector(n) takes FixedSizeList&lt;Float32&gt;(n) and List/LargeList of Float32 or Float64 whose lists all have n
 * elements; a list of another length ({@link Rejection#VECTOR_LENGTH}), a NULL element
 * ({@link Rejection#NULL_ELEMENT}), NaN or an infinity ({@link Rejection#NAN}) and a Float64 that is not exactly a
 * float32 ({@link Rejection#INEXACT}) are per-row rejections. mssql-jdbc gets a {@link Vector} of float32 elements.
 * float16 vector columns (a SQL Server 2025 preview feature) are refused when the column is bound.
 */
final class ModernBindings {

    /** microsoft.sql.Types.VECTOR. */
    static final int JDBC_VECTOR = microsoft.sql.Types.VECTOR;

    private ModernBindings() {
    }

    static final class JsonBinding extends TargetBinding {
        JsonBinding(TargetColumn target) {
            super(target);
        }

        @Override
        Set<ValueKind> accepts() {
            return EnumSet.of(ValueKind.STRING, ValueKind.JSON);
        }

        @Override
        public boolean alwaysFits(ArrowColumnType source) {
            return kind == ValueKind.JSON; // the producer's own rendering
        }

        @Override
        public int jdbcType() {
            return Types.NVARCHAR;
        }

        @Override
        public int precision() {
            return MAX_CHARS;
        }

        @Override
        void checkValue(ColumnReader reader, int row) {
            if (kind != ValueKind.STRING) {
                return;
            }
            String s = (String) reader.getObject(row);
            int bad = JsonText.firstError(s);
            if (bad >= 0) {
                throw new ValueRejected(Rejection.NOT_JSON, "value '" + abbreviate(s) + "' is not JSON (unexpected "
                        + (bad < s.length() ? "character '" + s.charAt(bad) + "'" : "end") + " at position " + bad
                        + "); a json column takes one JSON value");
            }
        }

        @Override
        public Object convert(ColumnReader reader, int row) {
            return reader.getObject(row);
        }
    }

    static final class VectorBinding extends TargetBinding {
        private final int dimensions;

        VectorBinding(TargetColumn target) {
            super(target);
            if (target.scale() != null && target.scale() == 2) {
                throw new IllegalArgumentException("target column type " + target.typeText() + " is not supported:"
                        + " float16 vectors are a preview feature of SQL Server 2025; use vector(n) (float32)");
            }
            if (target.precision() == null || target.precision() < 1) {
                throw new IllegalArgumentException("the catalog reports no dimension count for vector column "
                        + target.name());
            }
            this.dimensions = target.precision();
        }

        @Override
        Set<ValueKind> accepts() {
            return EnumSet.of(ValueKind.JSON);
        }

        @Override
        public void checkSource(ArrowColumnType source) {
            if (!(source instanceof FloatListColumnType floats)) {
                throw new IllegalArgumentException(target.typeText() + " takes FixedSizeList<Float32>(" + dimensions
                        + ") or List<Float32|Float64> with " + dimensions + " elements per row");
            }
            if (floats.fixedSize() >= 0 && floats.fixedSize() != dimensions) {
                throw new IllegalArgumentException("a FixedSizeList of " + floats.fixedSize() + " elements cannot go"
                        + " into " + target.typeText() + " (" + dimensions + " dimensions)");
            }
        }

        @Override
        public int jdbcType() {
            return JDBC_VECTOR;
        }

        @Override
        public int precision() {
            return dimensions;
        }

        /** Bytes per element, as {@link Vector} counts it: 4 (float32). */
        @Override
        public int scale() {
            return 4;
        }

        @Override
        void checkValue(ColumnReader reader, int row) {
            FloatListColumnType.Reader r = (FloatListColumnType.Reader) reader;
            int n = r.size(row);
            if (n != dimensions) {
                throw new ValueRejected(Rejection.VECTOR_LENGTH, "a list of " + n + " elements cannot go into "
                        + target.typeText() + ", which has " + dimensions + " dimensions");
            }
            for (int i = 0; i < n; i++) {
                if (r.isElementNull(row, i)) {
                    throw new ValueRejected(Rejection.NULL_ELEMENT, "element " + i + " is NULL; a vector has no"
                            + " NULL elements");
                }
                double d = r.element(row, i);
                if (Double.isNaN(d) || Double.isInfinite(d)) {
                    throw new ValueRejected(Rejection.NAN, "element " + i + " is " + d + "; SQL Server vectors hold"
                            + " finite numbers only");
                }
                if ((double) (float) d != d) {
                    throw new ValueRejected(Rejection.INEXACT, "element " + i + " (" + d + ") is not exactly a"
                            + " float32; " + target.typeText() + " would round it");
                }
            }
        }

        @Override
        public Object convert(ColumnReader reader, int row) {
            FloatListColumnType.Reader r = (FloatListColumnType.Reader) reader;
            Float[] data = new Float[dimensions];
            for (int i = 0; i < dimensions; i++) {
                data[i] = (float) r.element(row, i);
            }
            return new Vector(dimensions, Vector.VectorDimensionType.FLOAT32, data);
        }

        /** The elements of the checked list at {@code row}, for the direct encoder. */
        static float[] elements(ColumnReader reader, int row, int dimensions) {
            FloatListColumnType.Reader r = (FloatListColumnType.Reader) reader;
            float[] f = new float[dimensions];
            for (int i = 0; i < dimensions; i++) {
                f[i] = (float) r.element(row, i);
            }
            return f;
        }
    }
}
