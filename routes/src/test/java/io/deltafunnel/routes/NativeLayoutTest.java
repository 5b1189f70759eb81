package io.deltafunnel.routes;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class NativeLayoutTest {

    @Test
    void namesTheLibraryAsDuckDbsDriverDoes() {
        assertEquals("libduckdb_java.so_linux_amd64", NativeLayout.libraryName("Linux", "amd64"));
        assertEquals("libduckdb_java.so_linux_amd64", NativeLayout.libraryName("Linux", "x86_64"));
        assertEquals("libduckdb_java.so_linux_arm64", NativeLayout.libraryName("Linux", "aarch64"));
        assertEquals("libduckdb_java.so_macos_arm64", NativeLayout.libraryName("Mac OS X", "aarch64"));
        assertEquals("libduckdb_java.so_windows_amd64", NativeLayout.libraryName("Windows Server 2022", "amd64"));
        assertEquals("libduckdb_java.so_freebsd_riscv64", NativeLayout.libraryName("FreeBSD", "riscv64"));
    }

    @Test
    void theDriverJarHoldsThisPlatformsLibraryUnderThatName() throws Exception {
        try (ZipFile jar = new ZipFile(duckDbJar().toFile())) {
            String name = NativeLayout.libraryName(System.getProperty("os.name"), System.getProperty("os.arch"));
            assertNotNull(jar.getEntry(name), "DuckDB's jar has no " + name + ": its loader's naming changed");
        }
    }

    @Test
    void leavesOutEveryDuckDbLibraryAndKeepsEveryOtherEntryInOrder(@TempDir Path dir) throws Exception {
        Path source = dir.resolve("src").resolve("app.jar");
        Files.createDirectories(source.getParent());
        byte[] lib = "ELF linux amd64 library".getBytes(StandardCharsets.US_ASCII);
        byte[] stored = "stored bytes".getBytes(StandardCharsets.US_ASCII);
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "io.example.Main");
        try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(source))) {
            out.putNextEntry(new ZipEntry(JarFile.MANIFEST_NAME));
            manifest.write(out);
            out.closeEntry();
            out.putNextEntry(new ZipEntry("io/example/"));
            out.closeEntry();
            put(out, "io/example/Main.class", new byte[] {(byte) 0xCA, (byte) 0xFE});
            put(out, "libduckdb_java.so_linux_amd64", lib);
            put(out, "libduckdb_java.so_macos_arm64", new byte[] {1, 2});
            ZipEntry s = new ZipEntry("data/stored.txt");
            s.setMethod(ZipEntry.STORED);
            s.setSize(stored.length);
            CRC32 crc = new CRC32();
            crc.update(stored);
            s.setCrc(crc.getValue());
            out.putNextEntry(s);
            out.write(stored);
            out.closeEntry();
            // a resource under that name but not at the root is not DuckDB's
            put(out, "docs/libduckdb_java.so_notes.txt", new byte[] {3});
        }
        Path target = dir.resolve("app");
        NativeLayout.Result r = NativeLayout.write(source, target, "libduckdb_java.so_linux_amd64");

        assertEquals(target.resolve("app.jar"), r.jar());
        assertEquals(List.of("libduckdb_java.so_linux_amd64", "libduckdb_java.so_macos_arm64"), r.stripped());
        assertArrayEquals(lib, Files.readAllBytes(target.resolve("libduckdb_java.so_linux_amd64")));
        try (JarFile jar = new JarFile(r.jar().toFile())) {
            List<String> names = Collections.list(jar.entries()).stream().map(ZipEntry::getName).toList();
            assertEquals(List.of(JarFile.MANIFEST_NAME, "io/example/", "io/example/Main.class", "data/stored.txt",
                    "docs/libduckdb_java.so_notes.txt"), names);
            assertEquals("io.example.Main", jar.getManifest().getMainAttributes().getValue(Attributes.Name.MAIN_CLASS));
            assertArrayEquals(new byte[] {(byte) 0xCA, (byte) 0xFE},
                    jar.getInputStream(jar.getEntry("io/example/Main.class")).readAllBytes());
            ZipEntry s = jar.getEntry("data/stored.txt");
            assertEquals(ZipEntry.STORED, s.getMethod());
            assertArrayEquals(stored, jar.getInputStream(s).readAllBytes());
        }
        if (target.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            // readable by whoever runs the image, not only by the user who laid it out
            assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(r.jar())));
            assertEquals("rwxr-xr-x", PosixFilePermissions.toString(Files.getPosixFilePermissions(r.library())));
        }
        try (var left = Files.list(target)) {
            assertEquals(List.of("app.jar", "libduckdb_java.so_linux_amd64"),
                    left.map(p -> p.getFileName().toString()).sorted().toList(), "no temporary file is left");
        }
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        NativeLayout.report(r, new PrintStream(said, true, StandardCharsets.UTF_8));
        assertTrue(said.toString(StandardCharsets.UTF_8).contains("libduckdb_java.so_linux_amd64"), said.toString());
    }

    @Test
    void refusesAJarWithoutThisPlatformsLibraryAndWritesNothing(@TempDir Path dir) throws Exception {
        Path source = dir.resolve("only-mac.jar");
        try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(source))) {
            put(out, "libduckdb_java.so_macos_arm64", new byte[] {1});
        }
        Path target = dir.resolve("out");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> NativeLayout.write(source, target, "libduckdb_java.so_linux_amd64"));
        assertTrue(e.getMessage().contains("libduckdb_java.so_linux_amd64")
                && e.getMessage().contains("libduckdb_java.so_macos_arm64"), e.getMessage());
        try (var left = Files.list(target)) {
            assertEquals(0, left.count(), "nothing is left in the directory");
        }
    }

    /**
     * The layout of DuckDB's real driver jar, in a child JVM: DuckDB answers a query and the process maps the library
     * next to the jar; the unchanged jar, for contrast, maps a copy it extracted elsewhere.
     */
    @Test
    void duckDbLoadsTheLibraryNextToTheLaidOutJar(@TempDir Path dir) throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/self/maps")), "needs /proc/self/maps (Linux)");
        Path driver = duckDbJar();
        String name = NativeLayout.libraryName(System.getProperty("os.name"), System.getProperty("os.arch"));
        NativeLayout.Result r = NativeLayout.write(driver, dir.resolve("laid-out"), name);

        List<String> laidOut = probe(r.jar(), dir.resolve("tmp1"));
        assertTrue(laidOut.contains("answer 42"), laidOut.toString());
        assertEquals(List.of("mapped " + r.library().toRealPath()), mapped(laidOut));

        List<String> original = probe(driver, dir.resolve("tmp2"));
        assertTrue(original.contains("answer 42"), original.toString());
        List<String> maps = mapped(original);
        assertEquals(1, maps.size(), original.toString());
        assertTrue(maps.get(0).startsWith("mapped " + dir.resolve("tmp2").toRealPath()),
                "the unchanged jar extracts the library into java.io.tmpdir: " + original);
    }

    private static List<String> mapped(List<String> lines) {
        return lines.stream().filter(l -> l.startsWith("mapped ")).toList();
    }

    private static List<String> probe(Path duckDbJar, Path tmp) throws IOException, InterruptedException {
        Files.createDirectories(tmp);
        Path javaCommand = Path.of(System.getProperty("java.home"), "bin", "java");
        String testClasses = Path.of(NativeLayoutProbe.class.getProtectionDomain().getCodeSource().getLocation()
                .getPath()).toString();
        List<String> command = new ArrayList<>(List.of(javaCommand.toString(), "-Djava.io.tmpdir=" + tmp,
                "-cp", duckDbJar + java.io.File.pathSeparator + testClasses, NativeLayoutProbe.class.getName()));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), "the probe failed:\n" + out);
        return out.lines().toList();
    }

    private static Path duckDbJar() throws Exception {
        // the driver's class, not initialised: DuckDBNative (which loads the library) stays untouched here
        Class<?> driver = Class.forName("org.duckdb.DuckDBDriver", false, NativeLayoutTest.class.getClassLoader());
        Path jar = Path.of(driver.getProtectionDomain().getCodeSource().getLocation().toURI());
        assertTrue(Files.isRegularFile(jar), "DuckDB's driver is not in a jar here: " + jar);
        assertFalse(jar.toString().isEmpty());
        return jar;
    }

    private static void put(ZipOutputStream out, String name, byte[] bytes) throws IOException {
        out.putNextEntry(new ZipEntry(name));
        out.write(bytes);
        out.closeEntry();
    }
}
