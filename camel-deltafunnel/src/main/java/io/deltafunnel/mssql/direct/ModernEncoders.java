package io.deltafunnel.mssql.direct;

import java.io.IOException;

import io.deltafunnel.arrow.read.ColumnReader;
import io.deltafunnel.arrow.read.FloatListColumnType;
import io.deltafunnel.arrow.read.ValueKind;
import io.deltafunnel.mssql.bind.BoundColumn;
import io.deltafunnel.mssql.bind.SqlType;
import io.deltafunnel.mssql.bind.TargetColumn;
import io.deltafunnel.mssql.direct.DirectEncoders.Encoder;
import io.deltafunnel.mssql.direct.DirectEncoders.NullMarker;
import io.deltafunnel.tds.Collation;
import io.deltafunnel.tds.TdsMessageWriter;
import io.deltafunnel.tds.TypeId;
import io.deltafunnel.tds.VectorCodec;

import org.apache.arrow.vector.FieldVector;

/**
 * The {@link DirectEncoders} of SQL Server 2025's json and vector(n) targets.
 *
 * <p>json: as mssql-jdbc's bulk copy sends text into a json column, the column is declared nvarchar(max) in INSERT
 * BULK and its values travel as NVARCHAR PLP (UTF-16LE) text, which SQL Server converts to json; the text has been
 * checked to be JSON ({@code Rejection.NOT_JSON}).
 *
 * <p>vector(n): the VECTOR type (MS-TDS, with the VECTORSUPPORT feature acknowledged at login): TYPE_INFO 0xF5,
 * USHORT 8 + 4n, BYTE 0x00 (float32); each value USHORT 8 + 4n, the 8-byte header and the float32 elements
 * little-endian ({@link VectorCodec}). The lists have been checked to have n finite, non-null float32 elements.
 */
final class ModernEncoders {

    private ModernEncoders() {
    }

    /** json: the text encoder of an nvarchar(max) column with the same name. */
    static Encoder json(FieldVector v, ValueKind kind, BoundColumn column, FieldVector vector) {
        TargetColumn t = column.target();
        TargetColumn asText = new TargetColumn(t.name(), SqlType.NVARCHAR, "nvarchar", -1, null, null, null,
                t.nullable(), t.ordinal(), null, t.serverFilled(), t.identity());
        BoundColumn text = new BoundColumn(column.sourceIndex(), column.sourceName(), column.arrowType(), asText,
                column.binding());
        return TextEncoders.text(v, kind, text, vector, asText, Collation.SQL_LATIN1_GENERAL_CP1_CI_AS, false);
    }

    static Encoder vector(FieldVector vector, BoundColumn column) {
        ColumnReader reader = column.reader(vector);
        Integer dims = column.target().precision();
        if (!(reader instanceof FloatListColumnType.Reader floats) || dims == null) {
            return null;
        }
        int n = dims;
        int length = VectorCodec.maxLength(n);
        byte[] header = new byte[VectorCodec.HEADER_LENGTH];
        VectorCodec.writeHeader(header, 0, n);
        return new Encoder(vector, NullMarker.USHORT) {
            @Override
            void typeInfo(TdsMessageWriter w) throws IOException {
                w.writeByte(TypeId.VECTOR).writeShort(length).writeByte(VectorCodec.DIMENSION_FLOAT32);
            }

            @Override
            void write(TdsMessageWriter w, int row) throws IOException {
                w.writeShort(length).writeBytes(header);
                for (int i = 0; i < n; i++) {
                    w.writeInt(Float.floatToRawIntBits((float) floats.element(row, i)));
                }
            }
        };
    }
}
