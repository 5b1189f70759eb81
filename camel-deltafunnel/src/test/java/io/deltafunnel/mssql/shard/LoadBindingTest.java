package io.deltafunnel.mssql.shard;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** What {@link LoadBinding#difference} names, and the binding's JSON round trip through the plan's pins. */
class LoadBindingTest {

    private static final LoadBinding LOAD = new LoadBinding("merge", "merge-upsert",
            List.of("id Int(32, true) -> id int", "name Utf8 -> name nvarchar(40)"), List.of("id"),
            Map.of("nm", "name"), false);

    @Test
    void theSameBindingAgreesAlsoInOtherCaseAndAfterTheJsonRoundTrip() {
        LoadBinding same = new LoadBinding("MERGE", "merge-upsert",
                List.of("ID Int(32, true) -> ID int", "NAME Utf8 -> NAME nvarchar(40)"), List.of("ID"),
                Map.of("NM", "NAME"), false);
        assertNull(LOAD.difference(same));
        String pins = MssqlLoadPlans.withBinding("{\"versions\":{\"/lake/t\":3},\"incremental\":null}", LOAD);
        assertEquals(LOAD, MssqlLoadPlans.binding(pins));
        assertNull(MssqlLoadPlans.binding("{\"versions\":{}}"), "no binding recorded yet");
    }

    @Test
    void eachDifferenceIsNamed() {
        assertEquals("columnMapping: the load has {nm=name}, this run has {}", LOAD.difference(new LoadBinding(
                "merge", "merge-upsert", LOAD.columns(), List.of("id"), Map.of(), false)));
        assertEquals("keepIdentity: the load has false, this run has true", LOAD.difference(new LoadBinding(
                "merge", "merge-upsert", LOAD.columns(), List.of("id"), Map.of("nm", "name"), true)));
        assertEquals("final-step strategy: the load has merge-upsert, this run has merge-change-rows",
                LOAD.difference(new LoadBinding("merge", "merge-change-rows", LOAD.columns(), List.of("id"),
                        Map.of("nm", "name"), false)));
        assertEquals("columns: the load has [id Int(32, true) -> id int, name Utf8 -> name nvarchar(40)], this run"
                + " has [id Int(64, true) -> id int, name Utf8 -> name nvarchar(40)] (missing or different here:"
                + " [id Int(32, true) -> id int]) (not in the load: [id Int(64, true) -> id int])",
                LOAD.difference(new LoadBinding("merge", "merge-upsert",
                        List.of("id Int(64, true) -> id int", "name Utf8 -> name nvarchar(40)"), List.of("id"),
                        Map.of("nm", "name"), false)));
        assertEquals("writeMode: the load has merge, this run has append; keyColumns: the load has [id], this run"
                + " has []", LOAD.difference(new LoadBinding("append", "insert-select", LOAD.columns(), List.of(),
                        Map.of("nm", "name"), false)));
    }
}
