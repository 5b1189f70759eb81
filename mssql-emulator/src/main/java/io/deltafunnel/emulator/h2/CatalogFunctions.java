package io.deltafunnel.emulator.h2;

import io.deltafunnel.emulator.semantics.BulkChecks;
import io.deltafunnel.emulator.semantics.Catalog;
import io.deltafunnel.emulator.semantics.ColumnDef;
import io.deltafunnel.emulator.semantics.Constraints;
import io.deltafunnel.emulator.semantics.IndexDef;
import io.deltafunnel.emulator.semantics.Permissions;
import io.deltafunnel.emulator.semantics.TableIndexes;
import io.deltafunnel.emulator.semantics.SqlServerError;
import io.deltafunnel.emulator.semantics.SqlType;
import io.deltafunnel.emulator.semantics.TableDef;
import io.deltafunnel.emulator.tsql.MultipartName;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.h2.tools.SimpleResultSet;

/**
 * H2 user functions (CREATE ALIAS) answering SQL Server catalog functions and views from the emulator's
 * {@link Catalog}: OBJECT_ID, COLUMNPROPERTY, SCHEMA_NAME, OBJECT_NAME, INFORMATION_SCHEMA.TABLES/COLUMNS,
 * sys.columns/tables/schemas/objects/indexes, sys.database_principals/database_permissions. The catalog is found through the H2 database name.
 */
public final class CatalogFunctions {
    /** {H2 alias name, Java method}. */
    static final String[][] ALIASES = {
        {"MSSQL_OBJECT_ID", "objectId"},
        {"MSSQL_COLUMNPROPERTY", "columnProperty"},
        {"MSSQL_SCHEMA_NAME", "schemaName"},
        {"MSSQL_SCHEMA_ID", "schemaId"},
        {"MSSQL_OBJECT_NAME", "objectName"},
        {"MSSQL_IS_TABLES", "informationSchemaTables"},
        {"MSSQL_IS_COLUMNS", "informationSchemaColumns"},
        {"MSSQL_SYS_COLUMNS", "sysColumns"},
        {"MSSQL_SYS_TABLES", "sysTables"},
        {"MSSQL_SYS_SCHEMAS", "sysSchemas"},
        {"MSSQL_SYS_OBJECTS", "sysObjects"},
        {"MSSQL_SYS_DATABASES", "sysDatabases"},
        {"MSSQL_SYS_INDEXES", "sysIndexes"},
        {"MSSQL_SYS_INDEX_COLUMNS", "sysIndexColumns"},
        {"MSSQL_SYS_CHECK_CONSTRAINTS", "sysCheckConstraints"},
        {"MSSQL_SYS_FOREIGN_KEYS", "sysForeignKeys"},
        {"MSSQL_SYS_FOREIGN_KEY_COLUMNS", "sysForeignKeyColumns"},
        {"MSSQL_SYS_DATABASE_PRINCIPALS", "sysDatabasePrincipals"},
        {"MSSQL_SYS_DATABASE_PERMISSIONS", "sysDatabasePermissions"},
        {"MSSQL_BULK_NOCHECK", "bulkNoCheck"},
    };

    private static final Map<String, Catalog> CATALOGS = new ConcurrentHashMap<>();

    /** Text columns compare case-insensitively, like SQL Server's catalog views under a CI collation. */
    private static void addText(SimpleResultSet rs, String name, int length) {
        rs.addColumn(name, Types.VARCHAR, "VARCHAR_IGNORECASE", length, 0);
    }

    private CatalogFunctions() {
    }

    /** True while a bulk load without CHECK_CONSTRAINTS writes its rows (used inside CHECK constraints). */
    public static boolean bulkNoCheck() {
        return BulkChecks.skipped();
    }

    static void register(String h2Name, Catalog c) {
        CATALOGS.put(h2Name.toUpperCase(Locale.ROOT), c);
    }

    static void unregister(String h2Name) {
        CATALOGS.remove(h2Name.toUpperCase(Locale.ROOT));
    }

    static Catalog catalogOf(Connection c) throws SQLException {
        return catalog(c);
    }

    private static Catalog catalog(Connection c) throws SQLException {
        String name = c.getCatalog();
        Catalog cat = name == null ? null : CATALOGS.get(name.toUpperCase(Locale.ROOT));
        if (cat == null) {
            throw new SQLException("mssql-emulator catalog not found for H2 database " + name);
        }
        return cat;
    }

    static TableDef resolve(Catalog cat, String name) {
        try {
            String[] sn = MultipartName.schemaAndName(name);
            if (sn == null) {
                return null;
            }
            return cat.table(sn[0], sn[1]);
        } catch (SqlServerError e) {
            return null;
        }
    }

    public static Integer objectId(Connection c, String name) throws SQLException {
        if (name == null) {
            return null;
        }
        TableDef t = resolve(catalog(c), name);
        return t == null ? null : t.objectId();
    }

    public static Integer objectId(Connection c, String name, String type) throws SQLException {
        if (type != null && !type.trim().equalsIgnoreCase("U")) {
            return null;
        }
        return objectId(c, name);
    }

    public static Integer columnProperty(Connection c, Integer id, String column, String property)
            throws SQLException {
        if (id == null || column == null || property == null) {
            return null;
        }
        TableDef t = catalog(c).tableById(id);
        ColumnDef col = t == null ? null : t.column(column);
        if (col == null) {
            return null;
        }
        switch (property.toLowerCase(Locale.ROOT)) {
            case "isidentity": return col.identity() ? 1 : 0;
            case "allowsnull": return col.nullable() ? 1 : 0;
            case "iscomputed": return 0;
            case "precision": return col.type().numericPrecision() != null ? col.type().numericPrecision()
                    : col.type().characterMaximumLength();
            case "scale": return col.type().numericScale();
            default: return null;
        }
    }

    public static String schemaName(Connection c) {
        return "dbo";
    }

    public static String schemaName(Connection c, Integer id) throws SQLException {
        return id == null ? null : catalog(c).schemaName(id);
    }

    public static Integer schemaId(Connection c) {
        return 1;
    }

    public static Integer schemaId(Connection c, String name) throws SQLException {
        return name == null ? null : catalog(c).schemaId(name);
    }

    public static String objectName(Connection c, Integer id) throws SQLException {
        if (id == null) {
            return null;
        }
        TableDef t = catalog(c).tableById(id);
        return t == null ? null : t.name();
    }

    public static ResultSet informationSchemaTables(Connection c) throws SQLException {
        Catalog cat = catalog(c);
        SimpleResultSet rs = new SimpleResultSet();
        addText(rs, "TABLE_CATALOG", 128);
        addText(rs, "TABLE_SCHEMA", 128);
        addText(rs, "TABLE_NAME", 128);
        addText(rs, "TABLE_TYPE", 10);
        for (TableDef t : cat.tables()) {
            rs.addRow(cat.database(), t.schema(), t.name(), "BASE TABLE");
        }
        return rs;
    }

    public static ResultSet informationSchemaColumns(Connection c) throws SQLException {
        Catalog cat = catalog(c);
        SimpleResultSet rs = new SimpleResultSet();
        addText(rs, "TABLE_CATALOG", 128);
        addText(rs, "TABLE_SCHEMA", 128);
        addText(rs, "TABLE_NAME", 128);
        addText(rs, "COLUMN_NAME", 128);
        rs.addColumn("ORDINAL_POSITION", Types.INTEGER, 10, 0);
        addText(rs, "COLUMN_DEFAULT", 4000);
        addText(rs, "IS_NULLABLE", 3);
        addText(rs, "DATA_TYPE", 128);
        rs.addColumn("CHARACTER_MAXIMUM_LENGTH", Types.INTEGER, 10, 0);
        rs.addColumn("CHARACTER_OCTET_LENGTH", Types.INTEGER, 10, 0);
        rs.addColumn("NUMERIC_PRECISION", Types.INTEGER, 10, 0);
        rs.addColumn("NUMERIC_PRECISION_RADIX", Types.INTEGER, 10, 0);
        rs.addColumn("NUMERIC_SCALE", Types.INTEGER, 10, 0);
        rs.addColumn("DATETIME_PRECISION", Types.INTEGER, 10, 0);
        addText(rs, "CHARACTER_SET_NAME", 128);
        addText(rs, "COLLATION_NAME", 128);
        for (TableDef t : cat.tables()) {
            int ord = 1;
            for (ColumnDef col : t.columns()) {
                SqlType ty = col.type();
                Integer chars = ty.characterMaximumLength();
                Integer octets = chars == null ? null : chars < 0 ? -1 : ty.isUnicode() ? chars * 2 : chars;
                Integer radix = ty.numericPrecision() == null ? null
                        : ty.base() == SqlType.Base.REAL || ty.base() == SqlType.Base.FLOAT ? 2 : 10;
                rs.addRow(cat.database(), t.schema(), t.name(), col.name(), ord++,
                        col.defaultSql() == null ? null : "(" + col.defaultSql() + ")", col.nullable() ? "YES" : "NO",
                        ty.name(), chars, octets, ty.numericPrecision(), radix, ty.numericScale(),
                        ty.datetimePrecision(), ty.isCharacter() ? (ty.isUnicode() ? "UNICODE" : "iso_1") : null,
                        ty.collationName());
            }
        }
        return rs;
    }

    /**
     * sys.databases: one row, the session's database (the emulator has one database, under whichever name the
     * login asked for), with its READ_COMMITTED_SNAPSHOT option; snapshot isolation is always off.
     */
    public static ResultSet sysDatabases(Connection c, String name, Boolean readCommittedSnapshot) {
        SimpleResultSet rs = new SimpleResultSet();
        addText(rs, "name", 128);
        rs.addColumn("database_id", Types.INTEGER, 10, 0);
        rs.addColumn("is_read_committed_snapshot_on", Types.BOOLEAN, 1, 0);
        rs.addColumn("snapshot_isolation_state", Types.SMALLINT, 3, 0);
        addText(rs, "snapshot_isolation_state_desc", 60);
        addText(rs, "state_desc", 60);
        addText(rs, "collation_name", 128);
        rs.addColumn("compatibility_level", Types.SMALLINT, 3, 0);
        rs.addRow(name, 5, Boolean.TRUE.equals(readCommittedSnapshot), (short) 0, "OFF", "ONLINE",
                "SQL_Latin1_General_CP1_CI_AS", (short) 160);
        return rs;
    }

    public static ResultSet sysColumns(Connection c) throws SQLException {
        Catalog cat = catalog(c);
        SimpleResultSet rs = new SimpleResultSet();
        rs.addColumn("object_id", Types.INTEGER, 10, 0);
        addText(rs, "name", 128);
        rs.addColumn("column_id", Types.INTEGER, 10, 0);
        rs.addColumn("system_type_id", Types.INTEGER, 10, 0);
        rs.addColumn("user_type_id", Types.INTEGER, 10, 0);
        rs.addColumn("max_length", Types.INTEGER, 10, 0);
        rs.addColumn("precision", Types.INTEGER, 10, 0);
        rs.addColumn("scale", Types.INTEGER, 10, 0);
        addText(rs, "collation_name", 128);
        rs.addColumn("is_nullable", Types.BOOLEAN, 1, 0);
        rs.addColumn("is_identity", Types.BOOLEAN, 1, 0);
        rs.addColumn("is_computed", Types.BOOLEAN, 1, 0);
        rs.addColumn("vector_dimensions", Types.INTEGER, 10, 0);
        rs.addColumn("vector_base_type", Types.TINYINT, 3, 0);
        addText(rs, "vector_base_type_desc", 60);
        for (TableDef t : cat.tables()) {
            int id = 1;
            for (ColumnDef col : t.columns()) {
                SqlType ty = col.type();
                int precision = ty.numericPrecision() != null ? ty.numericPrecision()
                        : ty.datetimePrecision() != null ? ty.datetimePrecision() : 0;
                int scale = ty.numericScale() != null ? ty.numericScale()
                        : ty.datetimePrecision() != null ? ty.datetimePrecision() : 0;
                boolean vector = ty.base() == SqlType.Base.VECTOR;
                rs.addRow(t.objectId(), col.name(), id++, ty.systemTypeId(), ty.userTypeId(), ty.maxLengthBytes(),
                        precision, scale, ty.collationName(), col.nullable(),
                        col.identity(), false, vector ? ty.length() : null, vector ? (byte) 0 : null,
                        vector ? "float32" : null);
            }
        }
        return rs;
    }

    public static ResultSet sysTables(Connection c) throws SQLException {
        Catalog cat = catalog(c);
        SimpleResultSet rs = new SimpleResultSet();
        addText(rs, "name", 128);
        rs.addColumn("object_id", Types.INTEGER, 10, 0);
        rs.addColumn("schema_id", Types.INTEGER, 10, 0);
        addText(rs, "type", 2);
        addText(rs, "type_desc", 60);
        rs.addColumn("temporal_type", Types.TINYINT, 3, 0);
        addText(rs, "temporal_type_desc", 60);
        for (TableDef t : cat.tables()) {
            // no system-versioned temporal tables in the emulator (refused by CREATE/ALTER TABLE)
            rs.addRow(t.name(), t.objectId(), cat.schemaId(t.schema()), "U", "USER_TABLE", (byte) 0,
                    "NON_TEMPORAL_TABLE");
        }
        return rs;
    }

    /**
     * sys.indexes: one row per index of every table as {@link TableIndexes} numbers them (the clustered index 1,
     * the others from 2), and a HEAP row (index_id 0, no name) for a table without a clustered index. Primary keys and
     * unique constraints are listed with the index that backs them. Filtered, disabled, hypothetical and padded
     * indexes do not exist in the emulator; fill_factor is 0, row and page locks allowed, data_space_id 1 (PRIMARY).
     */
    public static ResultSet sysIndexes(Connection c) throws SQLException {
        Catalog cat = catalog(c);
        SimpleResultSet rs = new SimpleResultSet();
        rs.addColumn("object_id", Types.INTEGER, 10, 0);
        addText(rs, "name", 128);
        rs.addColumn("index_id", Types.INTEGER, 10, 0);
        rs.addColumn("type", Types.TINYINT, 3, 0);
        addText(rs, "type_desc", 60);
        rs.addColumn("is_unique", Types.BOOLEAN, 1, 0);
        rs.addColumn("data_space_id", Types.INTEGER, 10, 0);
        rs.addColumn("ignore_dup_key", Types.BOOLEAN, 1, 0);
        rs.addColumn("is_primary_key", Types.BOOLEAN, 1, 0);
        rs.addColumn("is_unique_constraint", Types.BOOLEAN, 1, 0);
        rs.addColumn("fill_factor", Types.TINYINT, 3, 0);
        rs.addColumn("is_padded", Types.BOOLEAN, 1, 0);
        rs.addColumn("is_disabled", Types.BOOLEAN, 1, 0);
        rs.addColumn("is_hypothetical", Types.BOOLEAN, 1, 0);
        rs.addColumn("allow_row_locks", Types.BOOLEAN, 1, 0);
        rs.addColumn("allow_page_locks", Types.BOOLEAN, 1, 0);
        rs.addColumn("has_filter", Types.BOOLEAN, 1, 0);
        addText(rs, "filter_definition", 4000);
        for (TableDef t : cat.tables()) {
            List<TableIndexes.Entry> indexes = TableIndexes.of(cat, t);
            if (indexes.isEmpty() || indexes.get(0).indexId() != 1) {
                rs.addRow(t.objectId(), null, 0, (byte) 0, "HEAP", false, 1, false, false, false, (byte) 0, false,
                        false, false, true, true, false, null);
            }
            for (TableIndexes.Entry e : indexes) {
                IndexDef d = e.index();
                rs.addRow(t.objectId(), d.name, e.indexId(), (byte) (d.clustered ? 1 : 2),
                        d.clustered ? "CLUSTERED" : "NONCLUSTERED", d.unique, 1, false, d.primaryKey,
                        d.uniqueConstraint, (byte) 0, false, false, false, true, true, false, null);
            }
        }
        return rs;
    }

    /**
     * sys.index_columns: per index of {@link #sysIndexes}, its key columns (key_ordinal 1, 2, ... in key order,
     * is_descending_key) then its INCLUDE columns (key_ordinal 0, is_included_column); index_column_id numbers them
     * in that order; column_id is the column's ordinal; partition_ordinal 0 (no partitioned tables).
     */
    public static ResultSet sysIndexColumns(Connection c) throws SQLException {
        Catalog cat = catalog(c);
        SimpleResultSet rs = new SimpleResultSet();
        rs.addColumn("object_id", Types.INTEGER, 10, 0);
        rs.addColumn("index_id", Types.INTEGER, 10, 0);
        rs.addColumn("index_column_id", Types.INTEGER, 10, 0);
        rs.addColumn("column_id", Types.INTEGER, 10, 0);
        rs.addColumn("key_ordinal", Types.TINYINT, 3, 0);
        rs.addColumn("partition_ordinal", Types.TINYINT, 3, 0);
        rs.addColumn("is_descending_key", Types.BOOLEAN, 1, 0);
        rs.addColumn("is_included_column", Types.BOOLEAN, 1, 0);
        for (TableDef t : cat.tables()) {
            for (TableIndexes.Entry e : TableIndexes.of(cat, t)) {
                int n = 1;
                int ordinal = 1;
                for (IndexDef.KeyColumn k : e.index().keyColumns) {
                    rs.addRow(t.objectId(), e.indexId(), n++, t.indexOf(k.name()) + 1, (byte) ordinal++, (byte) 0,
                            k.descending(), false);
                }
                for (String inc : e.index().includedColumns) {
                    rs.addRow(t.objectId(), e.indexId(), n++, t.indexOf(inc) + 1, (byte) 0, (byte) 0, false, true);
                }
            }
        }
        return rs;
    }

    /**
     * sys.check_constraints: name, object_id, parent_object_id (the table), schema_id, type C, parent_column_id
     * (0 for a table-level constraint), definition (SQL Server's normalised text, see {@code CheckDefinitions}),
     * is_disabled (always false: ALTER TABLE ... NOCHECK CONSTRAINT is not supported), is_not_trusted (a bulk load
     * without CHECK_CONSTRAINTS).
     */
    public static ResultSet sysCheckConstraints(Connection c) throws SQLException {
        Catalog cat = catalog(c);
        SimpleResultSet rs = new SimpleResultSet();
        addText(rs, "name", 128);
        rs.addColumn("object_id", Types.INTEGER, 10, 0);
        rs.addColumn("parent_object_id", Types.INTEGER, 10, 0);
        rs.addColumn("schema_id", Types.INTEGER, 10, 0);
        addText(rs, "type", 2);
        addText(rs, "type_desc", 60);
        rs.addColumn("parent_column_id", Types.INTEGER, 10, 0);
        addText(rs, "definition", 4000);
        rs.addColumn("is_disabled", Types.BOOLEAN, 1, 0);
        rs.addColumn("is_not_trusted", Types.BOOLEAN, 1, 0);
        for (TableDef t : cat.tables()) {
            for (Constraints.Check k : cat.checks(t.objectId())) {
                rs.addRow(k.name, k.objectId, t.objectId(), cat.schemaId(t.schema()), "C", "CHECK_CONSTRAINT",
                        k.column == null ? 0 : t.indexOf(k.column) + 1, k.definition, false, k.notTrusted);
            }
        }
        return rs;
    }

    /**
     * sys.foreign_keys: name, object_id, parent_object_id (the referencing table), referenced_object_id, schema_id,
     * type F, is_disabled (false), is_not_trusted (WITH NOCHECK or a bulk load without CHECK_CONSTRAINTS), delete
     * and update referential actions 0 / NO_ACTION (the only ones supported).
     */
    public static ResultSet sysForeignKeys(Connection c) throws SQLException {
        Catalog cat = catalog(c);
        SimpleResultSet rs = new SimpleResultSet();
        addText(rs, "name", 128);
        rs.addColumn("object_id", Types.INTEGER, 10, 0);
        rs.addColumn("parent_object_id", Types.INTEGER, 10, 0);
        rs.addColumn("referenced_object_id", Types.INTEGER, 10, 0);
        rs.addColumn("schema_id", Types.INTEGER, 10, 0);
        addText(rs, "type", 2);
        addText(rs, "type_desc", 60);
        rs.addColumn("is_disabled", Types.BOOLEAN, 1, 0);
        rs.addColumn("is_not_trusted", Types.BOOLEAN, 1, 0);
        rs.addColumn("delete_referential_action", Types.TINYINT, 3, 0);
        addText(rs, "delete_referential_action_desc", 60);
        rs.addColumn("update_referential_action", Types.TINYINT, 3, 0);
        addText(rs, "update_referential_action_desc", 60);
        for (TableDef t : cat.tables()) {
            for (Constraints.ForeignKey fk : cat.foreignKeys(t.objectId(), true)) {
                rs.addRow(fk.name, fk.id, fk.child, fk.parent, cat.schemaId(t.schema()), "F", "FOREIGN_KEY_CONSTRAINT",
                        false, fk.notTrusted, (byte) 0, "NO_ACTION", (byte) 0, "NO_ACTION");
            }
        }
        return rs;
    }

    /**
     * sys.foreign_key_columns: per FOREIGN KEY column pair, constraint_object_id, constraint_column_id (1, 2, ...),
     * parent_object_id / parent_column_id (the referencing side), referenced_object_id / referenced_column_id.
     */
    public static ResultSet sysForeignKeyColumns(Connection c) throws SQLException {
        Catalog cat = catalog(c);
        SimpleResultSet rs = new SimpleResultSet();
        rs.addColumn("constraint_object_id", Types.INTEGER, 10, 0);
        rs.addColumn("constraint_column_id", Types.INTEGER, 10, 0);
        rs.addColumn("parent_object_id", Types.INTEGER, 10, 0);
        rs.addColumn("parent_column_id", Types.INTEGER, 10, 0);
        rs.addColumn("referenced_object_id", Types.INTEGER, 10, 0);
        rs.addColumn("referenced_column_id", Types.INTEGER, 10, 0);
        for (TableDef t : cat.tables()) {
            for (Constraints.ForeignKey fk : cat.foreignKeys(t.objectId(), true)) {
                TableDef parent = cat.tableById(fk.parent);
                for (int k = 0; k < fk.childColumns.size(); k++) {
                    rs.addRow(fk.id, k + 1, fk.child, t.indexOf(fk.childColumns.get(k)) + 1, fk.parent,
                            parent == null ? null : parent.indexOf(fk.parentColumns.get(k)) + 1);
                }
            }
        }
        return rs;
    }

    /**
     * sys.database_principals: name, principal_id, type (S user, R role), type_desc, default_schema_name,
     * owning_principal_id (roles: dbo), is_fixed_role, authentication_type(_desc) (0 NONE for a user WITHOUT LOGIN).
     */
    public static ResultSet sysDatabasePrincipals(Connection c) throws SQLException {
        SimpleResultSet rs = new SimpleResultSet();
        addText(rs, "name", 128);
        rs.addColumn("principal_id", Types.INTEGER, 10, 0);
        addText(rs, "type", 1);
        addText(rs, "type_desc", 60);
        addText(rs, "default_schema_name", 128);
        rs.addColumn("owning_principal_id", Types.INTEGER, 10, 0);
        rs.addColumn("is_fixed_role", Types.BOOLEAN, 1, 0);
        rs.addColumn("authentication_type", Types.INTEGER, 10, 0);
        addText(rs, "authentication_type_desc", 60);
        for (Permissions.Principal p : catalog(c).permissions().principals()) {
            rs.addRow(p.name(), p.id(), p.type(), p.typeDesc(), p.defaultSchema(), p.owner(), p.fixedRole(),
                    p.authenticationType(), p.authenticationTypeDesc());
        }
        return rs;
    }

    /**
     * sys.database_permissions: class (0 database, 1 object), class_desc, major_id (the object id), minor_id (0),
     * grantee_principal_id, grantor_principal_id (dbo), type (the code padded to char(4): {@code SL  }),
     * permission_name, state (G, W, D), state_desc.
     */
    public static ResultSet sysDatabasePermissions(Connection c) throws SQLException {
        SimpleResultSet rs = new SimpleResultSet();
        rs.addColumn("class", Types.TINYINT, 3, 0);
        addText(rs, "class_desc", 60);
        rs.addColumn("major_id", Types.INTEGER, 10, 0);
        rs.addColumn("minor_id", Types.INTEGER, 10, 0);
        rs.addColumn("grantee_principal_id", Types.INTEGER, 10, 0);
        rs.addColumn("grantor_principal_id", Types.INTEGER, 10, 0);
        addText(rs, "type", 4);
        addText(rs, "permission_name", 128);
        addText(rs, "state", 1);
        addText(rs, "state_desc", 60);
        for (Permissions.Row r : catalog(c).permissions().rows()) {
            rs.addRow((byte) r.classId(), r.classDesc(), r.majorId(), 0, r.grantee(), Permissions.DBO,
                    String.format("%-4s", r.type()), r.permissionName(), String.valueOf(r.state()), r.stateDesc());
        }
        return rs;
    }

    public static ResultSet sysObjects(Connection c) throws SQLException {
        return sysTables(c);
    }

    public static ResultSet sysSchemas(Connection c) throws SQLException {
        Catalog cat = catalog(c);
        SimpleResultSet rs = new SimpleResultSet();
        addText(rs, "name", 128);
        rs.addColumn("schema_id", Types.INTEGER, 10, 0);
        rs.addColumn("principal_id", Types.INTEGER, 10, 0);
        for (Map.Entry<String, Integer> e : cat.schemas().entrySet()) {
            rs.addRow(e.getKey(), e.getValue(), 1);
        }
        return rs;
    }
}
