package io.deltafunnel.query;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Checks that a query is shard-safe for a sharded load: running it on each shard's part of the sharded view and
 * adding up the results gives exactly the result on the whole view. No Camel here.
 *
 * <p>The query is parsed by DuckDB itself ({@code json_serialize_sql}, DuckDB's parse tree as JSON) and walked. Every
 * query node that reads the sharded view (directly, through a subquery in its {@code FROM}, or through a CTE) must be
 * row-wise: scans, filters, projections, per-row expressions, joins with views that are not sharded, and
 * {@code UNION ALL}. Such a node is refused with the reason when it has
 * <ul>
 *   <li>an aggregate function, {@code GROUP BY} (also {@code GROUP BY ALL}) or {@code HAVING};</li>
 *   <li>{@code DISTINCT} or {@code DISTINCT ON};</li>
 *   <li>{@code ORDER BY}, {@code LIMIT} or {@code OFFSET};</li>
 *   <li>a window function or {@code QUALIFY};</li>
 *   <li>{@code USING SAMPLE} / {@code TABLESAMPLE};</li>
 *   <li>a set operation other than {@code UNION ALL}, or a {@code UNION ALL} with a branch that does not read the
 *       sharded view (each shard would repeat that branch's rows);</li>
 *   <li>a join in which the sharded view is on the side whose rows are only looked up: the right side of a
 *       {@code LEFT}, {@code SEMI} or {@code ANTI} join, the left side of a {@code RIGHT} join, either side of a
 *       {@code FULL} or positional join, the right side of an {@code ASOF} join, or both sides (a self-join);</li>
 *   <li>a subquery expression ({@code IN}, {@code EXISTS}, scalar) over the sharded view;</li>
 *   <li>a recursive CTE, {@code PIVOT}/{@code UNPIVOT} or a table function over the sharded view.</li>
 * </ul>
 * Table functions are refused anywhere in the query (whether or not the node reads the sharded view) unless they are
 * known not to be able to read a registered view: a table function such as {@code query('SELECT … FROM v')} or
 * {@code query_table('v')} names the view inside a string, which no parse tree shows, so each shard would silently
 * aggregate only its own part. Allowed are the file readers ({@link #FILE_READERS}; a path names a file, never a view)
 * and the generators {@link #GENERATORS}, only when their arguments hold no subquery, and only when no user-defined
 * function or macro of that name (which DuckDB would call instead, {@code initSql} can create one) exists.
 * Nodes that do not read the sharded view (lookups in whole views, aggregates over them) are not restricted. The
 * outermost query must read the sharded view, or every shard would send the same rows. Aggregate functions are
 * recognised by DuckDB's own catalog ({@code duckdb_functions()}), which is read only for a query that calls a
 * function or a table function ({@link #needsFunctionNames}). Views created by {@code initSql} are opaque: a query that
 * reads the sharded view through such a view is not seen as reading it.
 */
public final class ShardSafety {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Table functions that read files named by their (path) arguments; a path cannot name a view. */
    static final Set<String> FILE_READERS = Set.of("read_parquet", "parquet_scan", "read_csv", "read_csv_auto",
            "read_json", "read_json_auto", "read_ndjson", "read_ndjson_auto", "read_json_objects", "read_text",
            "read_blob");

    /** Table functions that generate rows from their argument values alone. */
    static final Set<String> GENERATORS = Set.of("range", "generate_series", "unnest");

    private final String view;
    private final Set<String> aggregates;
    private final List<String> problems = new ArrayList<>();

    private ShardSafety(String view, Set<String> aggregates) {
        this.view = view.toLowerCase(Locale.ROOT);
        this.aggregates = aggregates;
    }

    /**
     * Checks {@code sql} against the sharded view {@code view}, with DuckDB's parser on {@code duckdb} (a caller-owned
     * connection; nothing is left on it).
     *
     * @throws ShardUnsafeQueryException naming what makes the query unsafe, or why it cannot be checked
     */
    public static void check(Connection duckdb, String sql, String view) {
        check(duckdb, null, sql, view);
    }

    /**
     * {@link #check(Connection, String, String)} on a connection opened with {@code settings}
     * ({@link DuckDbConnections#open}): on a shared instance its function catalog is read once per instance
     * ({@link DuckDbInstances}), not once per check.
     *
     * @param settings the settings {@code duckdb} was opened with; null: the catalog is read on {@code duckdb}
     */
    public static void check(Connection duckdb, DuckDbSettings settings, String sql, String view) {
        JsonNode tree;
        Set<String> aggregates;
        Set<String> userDefined;
        try {
            try (PreparedStatement ps = duckdb.prepareStatement("SELECT json_serialize_sql(?)")) {
                ps.setString(1, sql);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    tree = JSON.readTree(rs.getString(1));
                }
            }
            // the catalog is consulted only at function calls and table functions: a query with neither needs none
            // (about 13-35 ms of CPU per scan of duckdb_functions(), once per DuckDB instance)
            FunctionNames names = !needsFunctionNames(tree) ? FunctionNames.NONE
                    : settings != null && settings.shared() != null
                            ? settings.shared().functionNames(settings, duckdb) : FunctionNames.read(duckdb);
            aggregates = names.aggregates();
            userDefined = names.userDefined();
        } catch (SQLException | java.io.IOException e) {
            throw new ShardUnsafeQueryException("cannot check the query for shard safety (sharded view " + view
                    + "): " + e.getMessage(), view, e);
        }
        if (tree.path("error").asBoolean(false)) {
            throw new ShardUnsafeQueryException("cannot check the query for shard safety (sharded view " + view
                    + "): DuckDB cannot parse it as one SELECT: " + tree.path("error_message").asText(), view, null);
        }
        JsonNode statements = tree.path("statements");
        if (statements.size() != 1) {
            throw new ShardUnsafeQueryException("a sharded query must be one SELECT statement, found "
                    + statements.size(), view, null);
        }
        ShardSafety walker = new ShardSafety(view, aggregates);
        walker.tableFunctions(statements.get(0).path("node"), userDefined);
        boolean reads = walker.node(statements.get(0).path("node"), new HashMap<>(), "the query");
        if (!reads && walker.problems.isEmpty()) {
            walker.problems.add("the query does not read the sharded view " + view
                    + " (every shard would send the same rows)");
        }
        if (!walker.problems.isEmpty()) {
            throw new ShardUnsafeQueryException("the query is not shard-safe for the sharded view " + view + ": "
                    + String.join("; ", walker.problems) + ". A sharded query must be row-wise (scans, filters,"
                    + " projections, per-row expressions, joins with unsharded views, UNION ALL); see"
                    + " docs/sharding.md", view, null);
        }
    }

    /**
     * Walks one query node; returns whether it reads the sharded view, and records the problems of the nodes that
     * do. {@code ctes}: CTE name (lower case) in scope to whether it reads the sharded view.
     */
    private boolean node(JsonNode node, Map<String, Boolean> outer, String where) {
        Map<String, Boolean> ctes = new HashMap<>(outer);
        for (JsonNode cte : node.path("cte_map").path("map")) {
            ctes.put(cte.path("key").asText().toLowerCase(Locale.ROOT),
                    node(cte.path("value").path("query_node"), ctes, "CTE " + cte.path("key").asText()));
        }
        String type = node.path("type").asText();
        boolean reads;
        switch (type) {
            case "SELECT_NODE" -> reads = select(node, ctes, where);
            case "SET_OPERATION_NODE" -> reads = setOperation(node, ctes, where);
            default -> {
                reads = mentions(node, ctes);
                if (reads) {
                    problems.add(where + " reads the sharded view through a " + type.toLowerCase(Locale.ROOT)
                                 .replace("_node", "").replace('_', ' '));
                }
            }
        }
        if (reads) {
            modifiers(node, where);
        }
        return reads;
    }

    private boolean select(JsonNode node, Map<String, Boolean> ctes, String where) {
        boolean reads = from(node.path("from_table"), ctes, where);
        Found found = new Found();
        for (String clause : List.of("select_list", "where_clause", "group_expressions", "having", "qualify")) {
            expressions(node.path(clause), ctes, found);
        }
        if (found.subqueryReads) {
            problems.add(where + " has a subquery expression (IN, EXISTS or scalar) over the sharded view");
            reads = true;
        }
        if (!reads) {
            return false;
        }
        if (node.path("group_expressions").size() > 0 || node.path("group_sets").size() > 0) {
            problems.add(where + " has GROUP BY");
        } else if (!"STANDARD_HANDLING".equals(node.path("aggregate_handling").asText("STANDARD_HANDLING"))) {
            problems.add(where + " has GROUP BY ALL");
        }
        if (!node.path("having").isMissingNode() && !node.path("having").isNull()) {
            problems.add(where + " has HAVING");
        }
        if (!found.aggregates.isEmpty()) {
            problems.add(where + " has the aggregate function(s) " + String.join(", ", found.aggregates));
        }
        if (found.window || (!node.path("qualify").isMissingNode() && !node.path("qualify").isNull())) {
            problems.add(where + " has a window function");
        }
        if (!node.path("sample").isMissingNode() && !node.path("sample").isNull()) {
            problems.add(where + " has USING SAMPLE");
        }
        return true;
    }

    private boolean setOperation(JsonNode node, Map<String, Boolean> ctes, String where) {
        List<JsonNode> children = new ArrayList<>();
        node.path("children").forEach(children::add);
        for (String side : List.of("left", "right")) {
            if (node.path(side).isObject()) {
                children.add(node.path(side));
            }
        }
        int reading = 0;
        for (int i = 0; i < children.size(); i++) {
            reading += node(children.get(i), ctes, where + " (set operation branch " + (i + 1) + ")") ? 1 : 0;
        }
        if (reading == 0) {
            return false;
        }
        String op = node.path("setop_type").asText();
        boolean all = node.path("setop_all").asBoolean(false);
        if (!(op.startsWith("UNION") && all)) {
            problems.add(where + " has " + op.replace('_', ' ') + (all ? " ALL" : "")
                         + " (only UNION ALL is shard-safe)");
        } else if (reading < children.size()) {
            problems.add(where + " has a UNION ALL branch that does not read the sharded view (every shard would"
                         + " send its rows)");
        }
        return true;
    }

    private void modifiers(JsonNode node, String where) {
        for (JsonNode m : node.path("modifiers")) {
            switch (m.path("type").asText()) {
                case "ORDER_MODIFIER" -> problems.add(where + " has ORDER BY");
                case "LIMIT_MODIFIER", "LIMIT_PERCENT_MODIFIER" -> problems.add(where + " has LIMIT/OFFSET");
                case "DISTINCT_MODIFIER" -> problems.add(where + " has DISTINCT"
                        + (m.path("distinct_on_targets").size() > 0 ? " ON" : ""));
                default -> problems.add(where + " has the modifier " + m.path("type").asText());
            }
        }
    }

    /** A FROM item; returns whether it reads the sharded view. */
    private boolean from(JsonNode ref, Map<String, Boolean> ctes, String where) {
        if (ref == null || ref.isMissingNode() || ref.isNull()) {
            return false;
        }
        boolean reads;
        switch (ref.path("type").asText()) {
            case "BASE_TABLE" -> reads = isShardedTable(ref, ctes);
            case "SUBQUERY" -> reads = node(ref.path("subquery").path("node"), ctes,
                    "the subquery " + ref.path("alias").asText("in FROM"));
            case "JOIN" -> reads = join(ref, ctes, where);
            case "EMPTY", "EXPRESSION_LIST" -> reads = false;
            default -> {
                reads = mentions(ref, ctes);
                if (reads) {
                    problems.add(where + " reads the sharded view through a "
                                 + ref.path("type").asText().toLowerCase(Locale.ROOT).replace('_', ' '));
                }
            }
        }
        if (reads && !ref.path("sample").isMissingNode() && !ref.path("sample").isNull()) {
            problems.add(where + " samples the sharded view (TABLESAMPLE)");
        }
        return reads;
    }

    private boolean join(JsonNode ref, Map<String, Boolean> ctes, String where) {
        boolean left = from(ref.path("left"), ctes, where);
        boolean right = from(ref.path("right"), ctes, where);
        Found found = new Found();
        expressions(ref.path("condition"), ctes, found);
        if (found.subqueryReads) {
            problems.add(where + " has a join condition with a subquery over the sharded view");
        }
        if (!left && !right) {
            return false;
        }
        String type = ref.path("join_type").asText();
        String kind = ref.path("ref_type").asText();
        String name = ("REGULAR".equals(kind) ? "" : kind + " ") + type + " JOIN";
        if (left && right) {
            problems.add(where + " joins the sharded view with itself (" + name + ")");
        } else if ("POSITIONAL".equals(kind)) {
            problems.add(where + " has a POSITIONAL JOIN with the sharded view");
        } else if ("ASOF".equals(kind)) {
            if (!left || !("INNER".equals(type) || "LEFT".equals(type))) {
                problems.add(where + " has the sharded view on the looked-up side of an ASOF JOIN (the nearest match"
                             + " would be looked up in one shard only)");
            }
        } else {
            boolean preserved = switch (type) {
                case "INNER" -> true;
                case "LEFT", "SEMI", "ANTI", "MARK", "SINGLE" -> left;
                case "RIGHT", "RIGHT_SEMI", "RIGHT_ANTI" -> right;
                default -> false; // OUTER (FULL) and anything unknown
            };
            if (!preserved) {
                problems.add(where + " has the sharded view on the looked-up side of a " + name
                             + " (the other side's rows would be repeated or dropped per shard)");
            }
        }
        return true;
    }

    private boolean isShardedTable(JsonNode ref, Map<String, Boolean> ctes) {
        String table = ref.path("table_name").asText().toLowerCase(Locale.ROOT);
        String schema = ref.path("schema_name").asText("");
        if (schema.isEmpty() && ctes.containsKey(table)) {
            return ctes.get(table);
        }
        return table.equals(view);
    }

    /** What the expressions of a node hold, not looking into subqueries (those are nodes of their own). */
    private static final class Found {
        final Set<String> aggregates = new java.util.TreeSet<>();
        boolean window;
        boolean subqueryReads;
    }

    private void expressions(JsonNode e, Map<String, Boolean> ctes, Found found) {
        if (e == null || e.isMissingNode() || e.isNull()) {
            return;
        }
        if (e.isArray()) {
            e.forEach(x -> expressions(x, ctes, found));
            return;
        }
        if (!e.isObject()) {
            return;
        }
        String cls = e.path("class").asText("");
        if ("SUBQUERY".equals(cls)) {
            // a subquery expression over the sharded view is never row-wise; its own shape is not checked further
            int before = problems.size();
            boolean reads = node(e.path("subquery").path("node"), ctes, "a subquery expression");
            while (problems.size() > before) {
                problems.remove(problems.size() - 1);
            }
            found.subqueryReads |= reads;
            expressions(e.path("child"), ctes, found);
            return;
        }
        if ("WINDOW".equals(cls)) {
            found.window = true;
        }
        if ("FUNCTION".equals(cls) && aggregates.contains(e.path("function_name").asText().toLowerCase(Locale.ROOT))) {
            found.aggregates.add(e.path("function_name").asText());
        }
        e.fields().forEachRemaining(f -> {
            if (f.getValue().isContainerNode()) {
                expressions(f.getValue(), ctes, found);
            }
        });
    }

    /**
     * Whether anything below {@code json} is a function call ({@code "class": "FUNCTION"}: aggregates, macros,
     * operators such as {@code +}) or a table function ({@code "type": "TABLE_FUNCTION"}): the only places the walk
     * looks a name up in the function catalog ({@link #expressions} and {@link #tableFunctions}), so without them the
     * check needs no catalog.
     */
    static boolean needsFunctionNames(JsonNode json) {
        return anyBelow(json, n -> "FUNCTION".equals(n.path("class").asText())
                || "TABLE_FUNCTION".equals(n.path("type").asText()));
    }

    /**
     * Refuses every table function anywhere below {@code json} that could read a registered view (so the sharded
     * view, by a name inside a string argument or a subquery argument): all but the allowed file readers and
     * generators, those too when a subquery is among their arguments or a user-defined function of that name exists.
     */
    private void tableFunctions(JsonNode json, Set<String> userDefined) {
        if (json.isObject() && "TABLE_FUNCTION".equals(json.path("type").asText())) {
            JsonNode function = json.path("function");
            String name = function.path("function_name").asText();
            String lower = name.toLowerCase(Locale.ROOT);
            String qualified = (function.path("schema").asText("").isEmpty() ? ""
                    : function.path("schema").asText() + ".") + name;
            String allowed = "only the file readers " + new java.util.TreeSet<>(FILE_READERS)
                    + " and the generators " + new java.util.TreeSet<>(GENERATORS) + " are allowed";
            if (!FILE_READERS.contains(lower) && !GENERATORS.contains(lower)) {
                problems.add("the query calls the table function " + qualified + "(…), which can read the sharded"
                        + " view " + view + " by name (each shard would see only its own part); " + allowed);
            } else if (userDefined.contains(lower)) {
                problems.add("the query calls the table function " + qualified + "(…), and a user-defined function"
                        + " or macro of that name exists (it may read the sharded view " + view + ")");
            } else if (containsSubquery(function.path("arguments"))) {
                problems.add("the query calls the table function " + qualified + "(…) with a subquery argument"
                        + " (it may read the sharded view " + view + "); table function arguments must be values");
            }
        }
        for (JsonNode child : json) {
            if (child.isContainerNode()) {
                tableFunctions(child, userDefined);
            }
        }
    }

    private static boolean containsSubquery(JsonNode json) {
        return anyBelow(json, n -> "SUBQUERY".equals(n.path("class").asText()));
    }

    /** Whether {@code json} or any object below it satisfies {@code test}. */
    private static boolean anyBelow(JsonNode json, java.util.function.Predicate<JsonNode> test) {
        if (json.isObject() && test.test(json)) {
            return true;
        }
        for (JsonNode child : json) {
            if (child.isContainerNode() && anyBelow(child, test)) {
                return true;
            }
        }
        return false;
    }

    /** Whether anything below {@code json} names the sharded view (or a CTE that reads it) as a table. */
    private boolean mentions(JsonNode json, Map<String, Boolean> ctes) {
        return anyBelow(json, n -> "BASE_TABLE".equals(n.path("type").asText()) && n.has("table_name")
                && isShardedTable(n, ctes));
    }
}
