package io.deltafunnel.delta;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.UUID;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;

/** Deletion-vector decoding: Z85, UUID paths, and the RoaringBitmapArray format with every container kind. */
class DeletionVectorTest {

    @Test
    void inlineVectorRoundTripsThroughZ85WithPadding() {
        byte[] bitmap = DeletionVectorBytes.bitmap(DeletionVectorBytes.Containers.ARRAY_OR_BITMAP, 3, 4, 7, 11, 18, 29);
        byte[] raw = Z85.decode(DeletionVectorBytes.z85(bitmap));
        assertArrayEquals(new long[] {3, 4, 7, 11, 18, 29}, RoaringBitmapArray.decode(raw, 0, bitmap.length));
    }

    @Test
    void protocolRelativePathExampleResolves() {
        DeletionVectorDescriptor dv = new DeletionVectorDescriptor("u", "ab^-aqEH.-t@S}K{vb[*k^", 4, 40, 6);
        assertEquals("s3://mytable/ab/deletion_vector_d2c639aa-8816-431a-aaf6-d3fe2512ff61.bin",
                DeletionVectorReader.location("s3://mytable", dv));
    }

    @Test
    void absolutePathIsDecoded() {
        DeletionVectorDescriptor dv = new DeletionVectorDescriptor("p", "file:///data/my%20table/dv.bin", 1, 40, 6);
        assertEquals("/data/my table/dv.bin", DeletionVectorReader.location("/elsewhere", dv));
    }

    @Test
    void z85RoundTripsUuid() {
        UUID uuid = UUID.randomUUID();
        assertEquals(uuid, Z85.decodeUuid(DeletionVectorBytes.z85(uuid)));
    }

    @Test
    void arrayBitmapAndRunContainersDecode() {
        long[] sparse = {0, 5, 65_535, 65_536, 70_000, 4_294_967_295L, 4_294_967_296L, 12_884_901_890L};
        assertArrayEquals(sparse, decode(DeletionVectorBytes.Containers.ARRAY_OR_BITMAP, sparse));
        assertArrayEquals(sparse, decode(DeletionVectorBytes.Containers.RUNS, sparse));
        long[] dense = LongStream.range(100, 10_100).toArray(); // > 4096 in one container: bitmap container
        assertArrayEquals(dense, decode(DeletionVectorBytes.Containers.ARRAY_OR_BITMAP, dense));
        assertArrayEquals(dense, decode(DeletionVectorBytes.Containers.RUNS, dense));
        long[] manyContainers = LongStream.range(0, 6).map(i -> i * 65_536 + 7).toArray(); // >= 4 run containers: offsets
        assertArrayEquals(manyContainers, decode(DeletionVectorBytes.Containers.RUNS, manyContainers));
    }

    @Test
    void wrongMagicIsRejected() {
        byte[] bytes = DeletionVectorBytes.bitmap(DeletionVectorBytes.Containers.ARRAY_OR_BITMAP, 1, 2);
        bytes[3] ^= 0x10;
        assertThrows(IllegalArgumentException.class, () -> RoaringBitmapArray.decode(bytes, 0, bytes.length));
    }

    @Test
    void malformedBitmapsAreRejectedAsIllegalArguments() {
        byte[] portable = DeletionVectorBytes.bitmap(DeletionVectorBytes.Containers.ARRAY_OR_BITMAP, 1, 2, 70_000);
        byte[] truncated = java.util.Arrays.copyOf(portable, portable.length - 3);
        assertThrows(IllegalArgumentException.class, () -> RoaringBitmapArray.decode(truncated, 0, truncated.length));
        byte[] nativeGarbage = portable.clone();
        nativeGarbage[0] ^= 1; // the native layout's magic, followed by bytes that are not that layout
        assertThrows(IllegalArgumentException.class,
                () -> RoaringBitmapArray.decode(nativeGarbage, 0, nativeGarbage.length));
    }

    private static long[] decode(DeletionVectorBytes.Containers style, long[] rows) {
        byte[] bytes = DeletionVectorBytes.bitmap(style, rows);
        return RoaringBitmapArray.decode(bytes, 0, bytes.length);
    }
}
