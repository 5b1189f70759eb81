package io.deltafunnel.routes;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Locale;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * Lays a runnable jar out so that DuckDB loads its JNI library from a file instead of extracting it at every start:
 * {@code java -cp deltafunnel-app.jar io.deltafunnel.routes.NativeLayout [source.jar] <directory>} writes
 * {@code <directory>/<the source jar's name>} without DuckDB's native libraries, and DuckDB's library of this platform
 * next to it, under the name DuckDB's loader looks for there.
 *
 * <p><b>Why.</b> DuckDB's JDBC driver ({@code org.duckdb.DuckDBNative}, 2.0.0.1) loads its library from the class path
 * resource {@code /libduckdb_java.so_<os>_<arch>} by copying it to a new temporary file and loading that, at every
 * JVM start: about 70 MB inflated and written, 0.5 s of wall time and 0.6 s of CPU before the first query (measured
 * in docs/performance.md, "The first run"), and the copy stays behind when the JVM is killed. When the resource is
 * absent, the driver tries {@code System.loadLibrary} and then loads
 * {@code <the directory of its jar>/libduckdb_java.so_<os>_<arch>} as it is. A container image or a Kubernetes Job
 * starts a fresh JVM for every load, so the image runs this layout ({@code Dockerfile}). The source jar is left as it
 * is and still runs alone, extracting as before; the laid-out jar needs its library next to it.
 *
 * <p>Plain Java, no Camel. What it writes is its caller's: each file is written under a temporary name in the directory
 * and then moved into place, so a failed layout leaves no half-written jar or library.
 */
public final class NativeLayout {

    /** What DuckDB's JDBC driver names its JNI library resources: {@code libduckdb_java.so_<os>_<arch>}. */
    static final String DUCKDB_LIBRARY_PREFIX = "libduckdb_java.so_";

    private NativeLayout() {
    }

    /**
     * What {@link #write} wrote.
     *
     * @param jar      the jar without DuckDB's native libraries
     * @param library  DuckDB's library of this platform, next to it
     * @param stripped the names of the library resources left out of the jar
     */
    record Result(Path jar, Path library, List<String> stripped) {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1 || args.length > 2) {
            System.err.println("usage: java -cp deltafunnel-app.jar io.deltafunnel.routes.NativeLayout [source.jar]"
                    + " <directory>");
            System.exit(2);
        }
        Path source = args.length == 2 ? Path.of(args[0]) : ownJar();
        Path directory = Path.of(args[args.length - 1]);
        report(write(source, directory, libraryName(System.getProperty("os.name"), System.getProperty("os.arch"))),
                System.out);
    }

    static void report(Result r, PrintStream out) throws IOException {
        out.printf("NativeLayout: wrote %s (%,d bytes; left out %s) and %s (%,d bytes), which DuckDB loads from"
                + " there instead of extracting it at every start%n", r.jar(), Files.size(r.jar()), r.stripped(),
                r.library(), Files.size(r.library()));
    }

    /**
     * DuckDB's name for its JNI library of the platform {@code os.name} / {@code os.arch}, as its driver computes it:
     * {@code windows}, {@code macos} or {@code linux} (else the lower-case name without other characters than
     * {@code [a-z0-9_-.]}), and {@code amd64} for x86_64/amd64, {@code arm64} for aarch64/arm64 (else the cleaned
     * architecture).
     */
    static String libraryName(String osName, String osArch) {
        String os = osName.toLowerCase(Locale.ROOT).trim();
        if (os.startsWith("windows")) {
            os = "windows";
        } else if (os.startsWith("mac")) {
            os = "macos";
        } else if (os.startsWith("linux")) {
            os = "linux";
        } else {
            os = os.replaceAll("[^a-z0-9_\\-.]", "");
        }
        String arch = osArch.toLowerCase(Locale.ROOT).trim();
        arch = switch (arch) {
            case "x86_64", "amd64" -> "amd64";
            case "aarch64", "arm64" -> "arm64";
            default -> arch.replaceAll("[^a-z0-9_\\-.]", "");
        };
        return DUCKDB_LIBRARY_PREFIX + os + "_" + arch;
    }

    /** Whether {@code name} is one of DuckDB's native library resources (at the jar's root). */
    static boolean isDuckDbLibrary(String name) {
        return name.startsWith(DUCKDB_LIBRARY_PREFIX) && name.indexOf('/') < 0;
    }

    /**
     * Writes {@code directory/<source's file name>}, every entry of {@code source} in its order except DuckDB's native
     * libraries, and {@code directory/<libraryName>} from the source's resource of that name.
     *
     * @throws IllegalArgumentException when {@code source} holds no resource {@code libraryName} (the platform's)
     */
    static Result write(Path source, Path directory, String libraryName) throws IOException {
        Files.createDirectories(directory);
        Path jar = directory.resolve(source.getFileName().toString());
        Path library = directory.resolve(libraryName);
        Path jarPart = Files.createTempFile(directory, ".native-layout-", ".jar.part");
        Path libraryPart = Files.createTempFile(directory, ".native-layout-", ".lib.part");
        List<String> stripped = new ArrayList<>();
        try (ZipFile in = new ZipFile(source.toFile())) {
            ZipEntry lib = in.getEntry(libraryName);
            if (lib == null) {
                List<String> present = new ArrayList<>();
                in.stream().map(ZipEntry::getName).filter(NativeLayout::isDuckDbLibrary).forEach(present::add);
                throw new IllegalArgumentException(source + " holds no DuckDB native library " + libraryName
                        + " for this platform (it holds " + present + ")");
            }
            try (InputStream from = in.getInputStream(lib)) {
                Files.copy(from, libraryPart, StandardCopyOption.REPLACE_EXISTING);
            }
            try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(jarPart))) {
                Enumeration<? extends ZipEntry> entries = in.entries();
                while (entries.hasMoreElements()) {
                    ZipEntry e = entries.nextElement();
                    if (isDuckDbLibrary(e.getName())) {
                        stripped.add(e.getName());
                        continue;
                    }
                    out.putNextEntry(copyOf(e));
                    if (!e.isDirectory()) {
                        try (InputStream from = in.getInputStream(e)) {
                            from.transferTo(out);
                        }
                    }
                    out.closeEntry();
                }
            }
            // temporary files are the owner's only: the jar and the library are for whoever runs the image
            permit(jarPart, "rw-r--r--");
            permit(libraryPart, "rwxr-xr-x");
            Files.move(libraryPart, library, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            Files.move(jarPart, jar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(jarPart);
            Files.deleteIfExists(libraryPart);
        }
        return new Result(jar, library, List.copyOf(stripped));
    }

    /**
     * A new entry of {@code e}'s name, time and comment: deflated again, or stored as it was (a stored entry needs its
     * size and CRC up front).
     */
    private static ZipEntry copyOf(ZipEntry e) {
        ZipEntry c = new ZipEntry(e.getName());
        c.setTime(e.getTime());
        if (e.getComment() != null) {
            c.setComment(e.getComment());
        }
        if (e.getExtra() != null) {
            c.setExtra(e.getExtra());
        }
        if (e.getMethod() == ZipEntry.STORED) {
            c.setMethod(ZipEntry.STORED);
            c.setSize(e.getSize());
            c.setCompressedSize(e.getSize());
            c.setCrc(e.getCrc());
        }
        return c;
    }

    /** Sets {@code file}'s POSIX permissions, where the file system has them. */
    private static void permit(Path file, String permissions) throws IOException {
        if (file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(permissions));
        }
    }

    /** The jar this class was loaded from. */
    private static Path ownJar() throws URISyntaxException {
        Path p = Path.of(NativeLayout.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        if (!Files.isRegularFile(p)) {
            throw new IllegalArgumentException("NativeLayout runs from " + p + ", not a jar: name the source jar");
        }
        return p;
    }
}
