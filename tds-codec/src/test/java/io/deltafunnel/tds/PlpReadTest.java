package io.deltafunnel.tds;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * {@link Plp#read} reads the chunks straight into the value's array: every split of a value into chunks, known and
 * unknown total length, values longer than the first allocation (the array grows) and chunk sums that do not match
 * the header.
 */
class PlpReadTest {

    /** A PLP value: the header ({@code total}) and the value's bytes cut at {@code cuts} (chunk lengths). */
    private static byte[] message(long total, byte[] value, int... cuts) {
        TdsWriter w = new TdsWriter();
        w.writeLong(total);
        int off = 0;
        for (int c : cuts) {
            w.writeInt(c);
            w.writeBytes(java.util.Arrays.copyOfRange(value, off, off + c));
            off += c;
        }
        w.writeInt(0);
        return w.toByteArray();
    }

    private static byte[] randomBytes(Random random, int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    private static int[] randomCuts(Random random, int n) {
        java.util.List<Integer> cuts = new java.util.ArrayList<>();
        int left = n;
        while (left > 0) {
            int c = 1 + random.nextInt(Math.min(left, 1 + random.nextInt(9000)));
            cuts.add(c);
            left -= c;
        }
        return cuts.stream().mapToInt(Integer::intValue).toArray();
    }

    @Test
    void valuesInAnyChunksWithKnownAndUnknownTotal() {
        Random random = new Random(1206);
        for (int round = 0; round < 300; round++) {
            int n = random.nextInt(4) == 0 ? random.nextInt(40) : random.nextInt(30_000);
            byte[] value = randomBytes(random, n);
            int[] cuts = randomCuts(random, n);
            assertArrayEquals(value, Plp.read(new TdsReader(message(n, value, cuts))), "known, " + n + " bytes");
            assertArrayEquals(value, Plp.read(new TdsReader(message(Plp.UNKNOWN_LENGTH, value, cuts))),
                    "unknown, " + n + " bytes");
        }
    }

    @Test
    void anEmptyValueIsAnEmptyArray() {
        assertEquals(0, Plp.read(new TdsReader(message(0, new byte[0]))).length);
        assertEquals(0, Plp.read(new TdsReader(message(Plp.UNKNOWN_LENGTH, new byte[0]))).length);
    }

    @Test
    void aValueLongerThanTheFirstAllocationGrows() {
        Random random = new Random(7);
        int n = Plp.FIRST_ALLOCATION * 2 + 12_345;
        byte[] value = randomBytes(random, n);
        int[] cuts = randomCuts(random, n);
        assertArrayEquals(value, Plp.read(new TdsReader(message(n, value, cuts))));
        assertArrayEquals(value, Plp.read(new TdsReader(message(Plp.UNKNOWN_LENGTH, value, cuts))));
    }

    @Test
    void chunksThatDoNotAddUpToTheHeaderAreAProtocolError() {
        byte[] value = {1, 2, 3, 4, 5, 6};
        TdsProtocolException fewer = assertThrows(TdsProtocolException.class,
                () -> Plp.read(new TdsReader(message(7, value, 2, 4))));
        assertTrue(fewer.getMessage().contains("PLP chunks hold 6 bytes, header said 7"), fewer.getMessage());
        TdsProtocolException more = assertThrows(TdsProtocolException.class,
                () -> Plp.read(new TdsReader(message(5, value, 2, 4))));
        assertTrue(more.getMessage().contains("PLP chunks hold 6 bytes, header said 5"), more.getMessage());
        // a header far beyond the chunks does not make the reader allocate it: the value is read, then refused
        TdsProtocolException huge = assertThrows(TdsProtocolException.class,
                () -> Plp.read(new TdsReader(message(Integer.MAX_VALUE - 16, value, 6))));
        assertTrue(huge.getMessage().contains("header said " + (Integer.MAX_VALUE - 16)), huge.getMessage());
    }

    @Test
    void aLengthOutOfRangeIsAProtocolError() {
        assertThrows(TdsProtocolException.class,
                () -> Plp.read(new TdsReader(message(Integer.MAX_VALUE, new byte[0]))));
        assertThrows(TdsProtocolException.class, () -> Plp.read(new TdsReader(message(-5, new byte[0]))));
    }
}
