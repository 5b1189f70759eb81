package io.deltafunnel.mssql;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SqlIdentifiersTest {

    @Test
    void quotesAndDoublesClosingBrackets() {
        assertEquals("[t]", SqlIdentifiers.quote("t"));
        assertEquals("[a]]b]", SqlIdentifiers.quote("a]b"));
        assertEquals("[x]];DROP TABLE y;--]", SqlIdentifiers.quote("x];DROP TABLE y;--"));
        assertEquals("[it's \"q\"]", SqlIdentifiers.quote("it's \"q\""));
        assertEquals("[a;b]", SqlIdentifiers.quote("a;b"));
        assertEquals("[--c]", SqlIdentifiers.quote("--c"));
        assertEquals("[[x]", SqlIdentifiers.quote("[x"));
    }

    @Test
    void rejectsEmptyLongAndNul() {
        assertThrows(IllegalArgumentException.class, () -> SqlIdentifiers.quote(""));
        assertThrows(IllegalArgumentException.class, () -> SqlIdentifiers.quote(null));
        assertThrows(IllegalArgumentException.class, () -> SqlIdentifiers.quote("a".repeat(129)));
        assertThrows(IllegalArgumentException.class, () -> SqlIdentifiers.quote("a\0b"));
    }

    @Test
    void parsesTableNames() {
        assertEquals(new TableName("dbo", "t"), TableName.parse("t"));
        assertEquals(new TableName("s", "t"), TableName.parse("s.t"));
        assertEquals(new TableName("my schema", "my.table"), TableName.parse("[my schema].[my.table]"));
        assertEquals(new TableName("dbo", "a]b"), TableName.parse("[a]]b]"));
        assertEquals("[s].[a]]b]", new TableName("s", "a]b").quoted());
        assertThrows(IllegalArgumentException.class, () -> TableName.parse("a.b.c"));
        assertThrows(IllegalArgumentException.class, () -> TableName.parse("[a"));
        assertThrows(IllegalArgumentException.class, () -> TableName.parse("a..b"));
    }
}
