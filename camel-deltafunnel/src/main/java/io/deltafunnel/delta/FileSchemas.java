package io.deltafunnel.delta;

import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the views' schema checks ({@link ViewBuilder#physicalSchema}) learned of <b>local</b> data files, kept for the
 * JVM, so that a route polling a table reads the footers of its new files only, not of every live file on every run.
 *
 * <ul>
 * <li>Each file's schema signature, by its location, its size and its modification time as the log gives them. A
 * Delta writer never rewrites a data file, so what its footer said stays true while the file is there.</li>
 * <li>A file is only taken from here while it still exists with the log's size ({@link #size}: one file-system
 * lookup, no read), so a vacuumed file still fails as {@link MissingDataFileException} before anything is read, as
 * when its footer is read; a file of another size is read again.</li>
 * <li>Each signature's columns as {@code DESCRIBE} gives them.</li>
 * <li>Remote files (any location that is not a local path) are not kept: they have no cheap existence check.</li>
 * </ul>
 *
 * <p>Holds only strings and immutable maps; no resource to close. Bounded: each map is cleared when it reaches its
 * limit ({@value #MAX_FILES} files, {@value #MAX_SIGNATURES} signatures), after which it fills again as files are read;
 * the files of one schema share one signature string, so a full map holds about the files' locations (some tens of
 * megabytes at the limit). Thread-safe.
 */
final class FileSchemas {

    static final int MAX_FILES = 100_000;
    static final int MAX_SIGNATURES = 1_000;

    /** One data file as the log names it. */
    record Key(String location, long size, long modificationTime) {
        static Key of(AddFile f) {
            return new Key(f.location(), f.size(), f.modificationTime());
        }
    }

    private static final Map<Key, String> SIGNATURES = new ConcurrentHashMap<>();
    /** Each distinct signature once, so that the files of one schema share its string. */
    private static final Map<String, String> DISTINCT = new ConcurrentHashMap<>();
    private static final Map<String, Map<String, DuckType>> COLUMNS = new ConcurrentHashMap<>();
    /** Footers the schema checks read for the files' signatures, over the JVM (diagnostics and tests). */
    private static final AtomicLong FOOTERS_READ = new AtomicLong();

    private FileSchemas() {
    }

    /**
     * The local path of {@code location}, or null when it is not a local file ({@code /…} or {@code file:…}) or
     * not one {@link Path} can name (then it is read as a remote file is).
     */
    static Path localPath(String location) {
        try {
            return localPathOrNull(location);
        } catch (IllegalArgumentException | FileSystemNotFoundException e) {
            return null; // InvalidPathException is an IllegalArgumentException too
        }
    }

    /**
     * The local path of a local location ({@code /…} or {@code file:…}), or null for any other.
     *
     * @throws IllegalArgumentException     when a local location is not one {@link Path} can name
     * @throws FileSystemNotFoundException when a {@code file:} URI names no file system
     */
    static Path localPathOrNull(String location) {
        if (location.startsWith("/")) {
            return Path.of(location);
        }
        return location.startsWith("file:") ? Path.of(URI.create(location)) : null;
    }

    /** The file's size on disk, or -1 when it does not exist. */
    static long size(Path path) throws IOException {
        try {
            return Files.size(path);
        } catch (NoSuchFileException e) {
            return -1;
        }
    }

    /** The signature kept for {@code file}, or null. */
    static String signature(AddFile file) {
        return SIGNATURES.get(Key.of(file));
    }

    static void putSignature(AddFile file, String signature) {
        if (SIGNATURES.size() >= MAX_FILES) {
            SIGNATURES.clear();
        }
        if (DISTINCT.size() >= MAX_SIGNATURES) {
            DISTINCT.clear();
        }
        String shared = DISTINCT.putIfAbsent(signature, signature);
        SIGNATURES.put(Key.of(file), shared == null ? signature : shared);
    }

    /** The columns kept for {@code signature}, or null. */
    static Map<String, DuckType> columns(String signature) {
        return COLUMNS.get(signature);
    }

    static void putColumns(String signature, Map<String, DuckType> columns) {
        if (COLUMNS.size() >= MAX_SIGNATURES) {
            COLUMNS.clear();
        }
        COLUMNS.put(signature, columns);
    }

    static void footersRead(int n) {
        FOOTERS_READ.addAndGet(n);
    }

    /** Footers the schema checks have read for the files' signatures in this JVM ({@code DESCRIBE} not counted). */
    static long footersRead() {
        return FOOTERS_READ.get();
    }
}
