package io.deltafunnel.routes;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The sample follows the requested size, and only a Delta table is ever deleted. */
class SampleTableTest {

    @Test
    void generatedKeptAndRegeneratedAtAnotherSize(@TempDir Path dir) throws Exception {
        Path sample = dir.resolve("orders");
        assertTrue(SampleTable.ensure(sample, 1000));
        assertEquals(1000, SampleTable.count(sample));
        assertFalse(SampleTable.ensure(sample, 1000), "same size: kept");
        assertTrue(SampleTable.ensure(sample, 1500), "another size: regenerated");
        assertEquals(1500, SampleTable.count(sample));
    }

    @Test
    void aDirectoryWithOtherFilesIsNeverDeleted(@TempDir Path dir) throws Exception {
        Path sample = dir.resolve("orders");
        SampleTable.ensure(sample, 100);
        Path mine = Files.writeString(sample.resolve("notes.txt"), "mine");
        IOException e = assertThrows(IOException.class, () -> SampleTable.ensure(sample, 200));
        assertTrue(e.getMessage().contains("notes.txt"), e.getMessage());
        assertTrue(Files.exists(mine));
        assertEquals(100, SampleTable.count(sample));

        Path other = Files.createDirectories(dir.resolve("other"));
        Files.writeString(other.resolve("data.csv"), "a,b");
        assertThrows(IOException.class, () -> SampleTable.ensure(other, 100));
    }
}
