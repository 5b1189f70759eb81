package io.deltafunnel.tds;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The raw-value helpers the streaming writer uses, checked against the TdsWriter/TdsReader encodings. */
class CodecHelpersTest {

    @Test
    void collationsByName() {
        assertSame(Collation.SQL_LATIN1_GENERAL_CP1_CI_AS, Collation.forName("SQL_Latin1_General_CP1_CI_AS"));
        assertArrayEquals(new byte[] {0x09, 0x04, (byte) 0xC0, 0x00, 51},
                Collation.forName("SQL_Latin1_General_CP1_CS_AS").bytes());
        assertEquals(54, Collation.forName("sql_latin1_general_cp1_ci_ai").sortId());
        Collation windows = Collation.forName("Latin1_General_CI_AS");
        assertArrayEquals(new byte[] {0x09, 0x04, (byte) 0xD0, 0x00, 0}, windows.bytes());
        assertEquals(0x0409, windows.lcid());
        Collation utf8 = Collation.forName("Latin1_General_100_CI_AS_SC_UTF8");
        assertTrue(utf8.isUtf8());
        assertEquals(StandardCharsets.UTF_8, utf8.charset());
        assertEquals(0x14, utf8.bytes()[3]); // fUTF8, version 1
        assertArrayEquals(new byte[] {0x09, 0x04, 0x00, 0x02, 0}, Collation.forName("Latin1_General_BIN2").bytes());
        assertNull(Collation.forName("Japanese_CI_AS"));
        assertNull(Collation.forName(null));
    }

    @Test
    void decimalEncodeMatchesWriteAndRead() {
        for (String v : new String[] {"0", "1", "-1", "9999999.99", "-0.01", "18446744073709551616",
            "-99999999999999999999999999999999999999", "99999999999999999999999999999999999999"}) {
            BigDecimal d = new BigDecimal(v);
            int precision = Math.max(d.precision(), 1);
            TdsWriter w = new TdsWriter();
            DecimalCodec.write(w, d, precision);
            byte[] written = w.toByteArray();
            int len = DecimalCodec.lengthForPrecision(precision);
            assertEquals(len, written[0]);
            BigInteger u = d.unscaledValue();
            byte[] raw = new byte[len];
            DecimalCodec.encode(u.longValue(), u.shiftRight(64).longValue(), len, raw, 0);
            assertArrayEquals(java.util.Arrays.copyOfRange(written, 1, written.length), raw, v);
            assertEquals(d, DecimalCodec.read(new TdsReader(raw), len, d.scale()), v);
        }
    }

    @Test
    void guidFromBigEndianIsToBytes() {
        UUID u = UUID.fromString("6f9619ff-8b86-d011-b42d-00c04fc964ff");
        byte[] be = ByteBuffer.allocate(16).putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits())
                .array();
        byte[] wire = new byte[16];
        GuidCodec.fromBigEndian(be, 0, wire, 0);
        assertArrayEquals(GuidCodec.toBytes(u), wire);
        assertEquals(u, GuidCodec.fromBytes(wire));
    }

    @Test
    void temporalRawValues() {
        assertEquals(0, TemporalCodec.dateDays(LocalDate.of(1, 1, 1).toEpochDay()));
        assertEquals(3_652_058, TemporalCodec.dateDays(LocalDate.of(9999, 12, 31).toEpochDay()));
        assertEquals(863_999_999_999L, TemporalCodec.timeUnits(LocalTime.MAX.toNanoOfDay() / 100 * 100, 7));
        assertEquals(0, TemporalCodec.days1900(LocalDate.of(1900, 1, 1).toEpochDay()));
        assertEquals(-53_690, TemporalCodec.days1900(LocalDate.of(1753, 1, 1).toEpochDay()));
        assertEquals(299, TemporalCodec.dateTimeTicks(997));
        assertEquals(1, TemporalCodec.dateTimeTicks(3));
        assertEquals(2, TemporalCodec.dateTimeTicks(7));
        TdsWriter w = new TdsWriter();
        TemporalCodec.writeDateTime(w, LocalDateTime.of(9999, 12, 31, 23, 59, 59, 997_000_000));
        assertEquals(LocalDateTime.of(9999, 12, 31, 23, 59, 59, 997_000_000),
                TemporalCodec.readDateTime(new TdsReader(w.toByteArray())));
    }
}
