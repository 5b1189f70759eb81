package io.deltafunnel.delta;

import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32;

/**
 * Turns the deletion vectors of a snapshot's files into deleted row positions. Inline vectors are Z85-decoded; on-disk
 * vector files are fetched with one DuckDB {@code read_blob} call (each distinct file once), so remote tables work.
 */
final class DeletionVectorReader {

    private static final Pattern MISSING = Pattern.compile("No files found that match the pattern \"([^\"]+)\"");

    private DeletionVectorReader() {
    }

    /** Absolute location of an on-disk vector ({@code u} or {@code p}); null for inline ones. */
    static String location(String table, DeletionVectorDescriptor dv) {
        switch (dv.storageType()) {
            case "u": {
                String encoded = dv.pathOrInlineDv();
                if (encoded.length() < 20) {
                    throw new IllegalArgumentException("relative deletion vector path too short: " + encoded);
                }
                String prefix = encoded.substring(0, encoded.length() - 20);
                UUID uuid = Z85.decodeUuid(encoded.substring(encoded.length() - 20));
                return table + "/" + (prefix.isEmpty() ? "" : prefix + "/") + "deletion_vector_" + uuid + ".bin";
            }
            case "p":
                return TablePaths.resolve(table, dv.pathOrInlineDv());
            case "i":
                return null;
            default:
                throw new IllegalArgumentException("unknown deletion vector storage type '" + dv.storageType() + "'");
        }
    }

    /**
     * Deleted row positions of each file, in the order of {@code files} (null for a file without a deletion vector).
     * Per entry, not per location: the same data file can be live twice with different deletion vectors.
     */
    static List<long[]> read(Connection duckdb, String table, List<AddFile> files) throws DeltaException {
        List<long[]> result = new ArrayList<>(files.size());
        Set<String> onDisk = new LinkedHashSet<>();
        for (AddFile f : files) {
            DeletionVectorDescriptor dv = f.deletionVector();
            if (dv == null) {
                continue;
            }
            try {
                String loc = location(table, dv);
                if (loc != null) {
                    onDisk.add(loc);
                }
            } catch (RuntimeException e) {
                throw new CorruptLogException(table, f.location(), "bad deletion vector descriptor (" + e.getMessage() + ")", e);
            }
        }
        Map<String, byte[]> blobs = fetch(duckdb, table, onDisk);
        for (AddFile f : files) {
            DeletionVectorDescriptor dv = f.deletionVector();
            if (dv == null) {
                result.add(null);
                continue;
            }
            String loc = location(table, dv);
            long[] rows;
            try {
                if (loc == null) {
                    byte[] raw = Z85.decode(dv.pathOrInlineDv());
                    rows = RoaringBitmapArray.decode(raw, 0, Math.min(dv.sizeInBytes(), raw.length));
                } else {
                    rows = fromFile(blobs.get(loc), dv);
                }
            } catch (RuntimeException e) { // malformed bytes or descriptor: bad sizes, offsets, counts
                throw new CorruptLogException(table, loc == null ? f.location() : loc,
                        "cannot decode deletion vector of " + f.location() + " (" + e.getMessage() + ")", e);
            }
            if (rows.length != dv.cardinality()) {
                throw new CorruptLogException(table, loc == null ? f.location() : loc, "deletion vector of "
                        + f.location() + " holds " + rows.length + " rows but its cardinality is " + dv.cardinality(), null);
            }
            result.add(rows);
        }
        return result;
    }

    /** On-disk layout: version byte, then per vector a big-endian size, the bitmap, and a big-endian CRC-32. */
    private static long[] fromFile(byte[] content, DeletionVectorDescriptor dv) {
        int offset = dv.offset() == null ? 0 : dv.offset();
        if (offset == 0) {
            offset = 1; // the first vector starts right after the format version byte
        }
        ByteBuffer buf = ByteBuffer.wrap(content);
        if (content.length == 0 || content[0] != 1) {
            throw new IllegalArgumentException("unsupported deletion vector file format version "
                    + (content.length == 0 ? "(empty file)" : content[0]));
        }
        int size = buf.getInt(offset);
        if (size != dv.sizeInBytes()) {
            throw new IllegalArgumentException("size at offset " + offset + " is " + size + ", descriptor says "
                    + dv.sizeInBytes());
        }
        CRC32 crc = new CRC32();
        crc.update(content, offset + 4, size);
        int expected = buf.getInt(offset + 4 + size);
        if ((int) crc.getValue() != expected) {
            throw new IllegalArgumentException("CRC-32 mismatch at offset " + offset);
        }
        return RoaringBitmapArray.decode(content, offset + 4, size);
    }

    private static Map<String, byte[]> fetch(Connection duckdb, String table, Set<String> locations)
            throws DeltaException {
        Map<String, byte[]> blobs = new LinkedHashMap<>();
        if (locations.isEmpty()) {
            return blobs;
        }
        String sql = "SELECT filename, content FROM read_blob(" + SqlText.list(new ArrayList<>(locations)) + ")";
        try (Statement st = duckdb.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                blobs.put(rs.getString(1), rs.getBytes(2));
            }
        } catch (SQLException e) {
            Matcher m = MISSING.matcher(String.valueOf(e.getMessage()));
            if (m.find()) {
                throw new MissingDataFileException(table, m.group(1), e);
            }
            throw new CorruptLogException(table, null, "cannot read deletion vector files (" + e.getMessage() + ")", e);
        }
        for (String loc : locations) {
            if (!blobs.containsKey(loc)) {
                throw new MissingDataFileException(table, loc, null);
            }
        }
        return blobs;
    }
}
