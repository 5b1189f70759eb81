package io.deltafunnel.mssql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import io.deltafunnel.mssql.session.StagingTable;

import org.junit.jupiter.api.Test;

class BulkLoadSettingsTest {

    @Test
    void parsesListsAndMappings() {
        assertEquals(List.of("a", "b"), BulkLoadSettings.parseList(" a , b ,"));
        assertEquals(List.of(), BulkLoadSettings.parseList(null));
        assertEquals(Map.of("src1", "dst1", "src2", "dst2"), BulkLoadSettings.parseMapping("src1:dst1, src2:dst2"));
        assertThrows(IllegalArgumentException.class, () -> BulkLoadSettings.parseMapping("a"));
        assertThrows(IllegalArgumentException.class, () -> BulkLoadSettings.parseMapping("a:"));
        assertThrows(IllegalArgumentException.class, () -> BulkLoadSettings.parseMapping("a:b,A:c"));
    }

    @Test
    void asciiAsVarcharIsOnByDefaultAndKeptByTheCopies() {
        BulkLoadSettings s = BulkLoadSettings.defaults(TableName.parse("t"));
        org.junit.jupiter.api.Assertions.assertTrue(s.asciiAsVarchar());
        BulkLoadSettings off = s.toBuilder().asciiAsVarchar(false).build();
        org.junit.jupiter.api.Assertions.assertFalse(off.asciiAsVarchar());
        org.junit.jupiter.api.Assertions.assertFalse(off.withMerge(BulkLoadSettings.Merge.DEFAULT).asciiAsVarchar());
    }

    @Test
    void mergeNeedsKeys() {
        BulkLoadSettings s = BulkLoadSettings.defaults(TableName.parse("t"));
        assertThrows(IllegalArgumentException.class, () -> s.withWriteMode(WriteMode.MERGE, List.of()));
        assertEquals(WriteMode.MERGE, s.withWriteMode(WriteMode.MERGE, List.of("id")).writeMode());
    }

    @Test
    void historyNeedsKeysAndThreeDistinctColumnsWithDefaults() {
        BulkLoadSettings s = BulkLoadSettings.defaults(TableName.parse("t"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> s.withWriteMode(WriteMode.HISTORY, List.of()));
        assertTrue(e.getMessage().contains("writeMode=history needs keyColumns"), e.getMessage());
        BulkLoadSettings h = s.withWriteMode(WriteMode.HISTORY, List.of("id"));
        assertEquals(List.of("valid_from", "valid_to", "is_current"), h.history().columns());
        assertEquals(List.of("since", "valid_to", "live"),
                new BulkLoadSettings.HistorySettings("since", " ", "live").columns());
        assertThrows(IllegalArgumentException.class, () -> new BulkLoadSettings.HistorySettings("a", "A", null));
        assertThrows(IllegalArgumentException.class, () -> h.withWriteMode(WriteMode.HISTORY, List.of("is_current")));
        assertEquals("live", h.withHistory(new BulkLoadSettings.HistorySettings(null, null, "live")).history()
                .currentColumn());
    }

    @Test
    void stagingNameStaysWithinTheIdentifierLimit() {
        TableName staging = StagingTable.forRun(new TableName("s", "orders"),
                "0f8fad5b-d9cb-469f-a165-70867728950e");
        assertEquals(new TableName("s", "orders__df_0f8fad5bd9cb"), staging);
        TableName longOne = StagingTable.forRun(new TableName("s", "x".repeat(128)), "abc");
        assertTrue(longOne.table().length() <= 128, longOne.table());
        assertTrue(longOne.table().endsWith("__df_abc"));
    }
}
