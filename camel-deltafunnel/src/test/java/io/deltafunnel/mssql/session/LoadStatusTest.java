package io.deltafunnel.mssql.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The load statuses' text is the producer's {@code CamelDeltaFunnelLoadStatus} header value and what the routes
 * application prints ({@code ... shard 1/3: shard-done]}): it must stay exactly as documented in docs/sharding.md.
 */
class LoadStatusTest {

    @Test
    void eachStatusHasItsDocumentedText() {
        assertEquals("shard-done", LoadStatus.SHARD_DONE.text());
        assertEquals("load-done", LoadStatus.LOAD_DONE.text());
        assertEquals("already-done", LoadStatus.ALREADY_DONE.text());
        assertEquals(List.of("shard-done", "load-done", "already-done"),
                Arrays.stream(LoadStatus.values()).map(LoadStatus::text).toList(), "no other status");
        assertEquals("load-done", String.valueOf(LoadStatus.LOAD_DONE), "log lines show the text");
    }

    @Test
    void theTextReadsBackAsItsStatus() {
        for (LoadStatus s : LoadStatus.values()) {
            assertEquals(s, LoadStatus.ofText(s.text()));
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LoadStatus.ofText("SHARD_DONE"));
        assertTrue(e.getMessage().contains("'SHARD_DONE'"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> LoadStatus.ofText(null));
    }
}
