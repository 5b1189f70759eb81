package io.deltafunnel.delta;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The delta./deltaVersion./deltaTimestamp. option maps to specs, without Camel. */
class DeltaTableSpecsTest {

    private static Map<String, Object> map(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    @Test
    void tablesKeepTheirOrderAndTakeTheirPins() {
        List<DeltaTableSpec> specs = DeltaTableSpecs.of(map("b", "/lake/b", "a", "/lake/a", "c", "/lake/c"),
                map("b", "3", "c", " "), map("a", "2024-05-01T12:00:00Z"));
        assertEquals(List.of(new DeltaTableSpec("b", "/lake/b", 3L, null),
                new DeltaTableSpec("a", "/lake/a", null, Instant.parse("2024-05-01T12:00:00Z")),
                new DeltaTableSpec("c", "/lake/c", null, null)), specs, "a blank pin means latest");
    }

    @Test
    void noTablesNoSpecs() {
        assertEquals(List.of(), DeltaTableSpecs.of(null, null, null));
    }

    @Test
    void aPinOfAnUnknownViewIsRefusedNamingTheOption() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DeltaTableSpecs.of(map("a", "/lake/a"), map("x", "1"), null));
        assertTrue(e.getMessage().contains("deltaVersion./deltaTimestamp.x"), e.getMessage());
    }

    @Test
    void malformedPinsAreRefusedNamingTheView() {
        IllegalArgumentException version = assertThrows(IllegalArgumentException.class,
                () -> DeltaTableSpecs.of(map("a", "/lake/a"), map("a", "one"), null));
        assertTrue(version.getMessage().startsWith("view a: bad time-travel pin (deltaVersion.a=one"),
                version.getMessage());
        IllegalArgumentException time = assertThrows(IllegalArgumentException.class,
                () -> DeltaTableSpecs.of(map("a", "/lake/a"), null, map("a", "yesterday")));
        assertTrue(time.getMessage().contains("deltaTimestamp.a=yesterday"), time.getMessage());
        IllegalArgumentException both = assertThrows(IllegalArgumentException.class,
                () -> DeltaTableSpecs.of(map("a", "/lake/a"), map("a", "1"), map("a", "2024-05-01T12:00:00Z")));
        assertTrue(both.getMessage().contains("not both"), both.getMessage());
    }
}
