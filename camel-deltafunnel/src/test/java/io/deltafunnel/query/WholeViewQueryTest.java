package io.deltafunnel.query;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Only {@code SELECT * FROM <view>} is a whole-view read; any other shape may deliver other rows. */
class WholeViewQueryTest {

    @Test
    void selectStarFromOneViewIsRecognisedWhateverTheCaseQuotesAndSemicolon() {
        assertEquals("orders", WholeViewQuery.view("SELECT * FROM orders"));
        assertEquals("orders", WholeViewQuery.view("  select *\n from \"Orders\" ;  "));
        assertTrue(WholeViewQuery.readsWhole("SELECT * FROM source", "SOURCE"));
        assertFalse(WholeViewQuery.readsWhole("SELECT * FROM source", "other"));
    }

    @Test
    void anyOtherShapeIsNot() {
        for (String sql : new String[] {"SELECT * FROM orders WHERE id > 1", "SELECT id FROM orders",
                "SELECT * FROM orders LIMIT 5", "SELECT * FROM a JOIN b ON true", "SELECT * FROM \"orders",
                "SELECT * FROM orders -- all", "SELECT * FROM orders; SELECT 1", "WITH x AS (SELECT 1) SELECT * FROM x",
                "SELECT DISTINCT * FROM orders", ""}) {
            assertNull(WholeViewQuery.view(sql), sql);
        }
        assertNull(WholeViewQuery.view(null));
        assertFalse(WholeViewQuery.readsWhole(null, "orders"));
    }
}
