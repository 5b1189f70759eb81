package io.deltafunnel.emulator.fidelity;

import java.sql.SQLException;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Database principals and object permissions as SQL Server documents them ("CREATE ROLE", "CREATE USER", "GRANT
 * Object Permissions", "DENY", "REVOKE", "sys.database_principals", "sys.database_permissions"): a role and a user
 * without login, GRANT/DENY/REVOKE of table permissions listed as class 1 rows whose major_id is the table's object
 * id, and that the permissions belong to the object: DROP TABLE drops them, while TRUNCATE, INSERT and ALTER TABLE
 * ... SWITCH (which replace by switch relies on, issue 26) leave the target's permissions as they were. Errors: 15151
 * for an unknown principal or object, 15023 for a name in use, 4611 for DENY/REVOKE of a permission held WITH GRANT
 * OPTION without CASCADE.
 */
abstract class PermissionScenarios extends Scenarios {
    private String role;
    private String user;

    private String t() {
        return "[dbo].[" + table + "]";
    }

    private String other() {
        return "[dbo].[" + table + "_src]";
    }

    private void dropPrincipals() throws SQLException {
        exec("DROP USER IF EXISTS [" + user + "]");
        exec("DROP ROLE IF EXISTS [" + role + "]");
    }

    @BeforeEach
    void clean() throws SQLException {
        role = "r_" + table;
        user = "u_" + table;
        exec("IF @@TRANCOUNT > 0 ROLLBACK");
        dropIfExists(table);
        dropIfExists(table + "_src");
        dropPrincipals();
        exec("CREATE ROLE [" + role + "]");
        exec("CREATE USER [" + user + "] WITHOUT LOGIN");
    }

    @AfterEach
    void cleanUp() throws SQLException {
        exec("IF @@TRANCOUNT > 0 ROLLBACK");
        dropIfExists(table);
        dropIfExists(table + "_src");
        dropPrincipals();
    }

    /** The object permissions of {@code tableName}: grantee, permission, state, state_desc, type, class_desc. */
    private List<List<Object>> grants(String tableName) throws SQLException {
        return rows("SELECT pr.name, p.permission_name, p.state, p.state_desc, RTRIM(p.type), p.class_desc,"
                + " CAST(p.class AS int), CAST(p.minor_id AS int), CAST(p.grantor_principal_id AS int)"
                + " FROM sys.database_permissions AS p JOIN sys.database_principals AS pr"
                + " ON pr.principal_id = p.grantee_principal_id"
                + " WHERE p.class = 1 AND p.major_id = OBJECT_ID('" + tableName + "')"
                + " ORDER BY pr.name, p.permission_name");
    }

    private List<Object> grant(String who, String permission, String state, String stateDesc, String type) {
        return List.of(who, permission, state, stateDesc, type, "OBJECT_OR_COLUMN", 1, 0, 1);
    }

    @Test
    void aRoleAndAUserWithoutLoginAreDatabasePrincipals() throws SQLException {
        assertEquals(List.of(List.of(role, "R", "DATABASE_ROLE", 1, false)),
                rows("SELECT name, type, type_desc, CAST(owning_principal_id AS int), is_fixed_role"
                        + " FROM sys.database_principals WHERE name = '" + role + "'"));
        assertEquals(List.of(List.of(user, "S", "SQL_USER", "dbo", "NONE")),
                rows("SELECT name, type, type_desc, default_schema_name, authentication_type_desc"
                        + " FROM sys.database_principals WHERE name = '" + user + "'"));
        // a new user is granted CONNECT on the database (class 0)
        assertEquals(List.of(List.of("CONNECT", "G", "DATABASE", 0)),
                rows("SELECT p.permission_name, p.state, p.class_desc, CAST(p.major_id AS int)"
                        + " FROM sys.database_permissions AS p JOIN sys.database_principals AS pr"
                        + " ON pr.principal_id = p.grantee_principal_id WHERE pr.name = '" + user + "'"));
        SQLException e = assertError(15023, "CREATE ROLE [" + user + "]");
        assertEquals("User, group, or role '" + user + "' already exists in the current database.", e.getMessage());
        assertError(15023, "CREATE USER [" + role + "] WITHOUT LOGIN");
    }

    @Test
    void grantDenyAndRevokeAreListedAsObjectPermissionsOfTheTable() throws SQLException {
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL PRIMARY KEY, [v] int NULL)");
        exec("GRANT SELECT, INSERT ON " + t() + " TO [" + role + "]");
        exec("GRANT UPDATE ON OBJECT::" + t() + " TO [" + user + "] WITH GRANT OPTION");
        exec("DENY DELETE ON " + t() + " TO [" + role + "], [" + user + "]");
        exec("GRANT ALTER, CONTROL, REFERENCES, VIEW DEFINITION ON " + t() + " TO [" + user + "]");
        assertEquals(List.of(
                grant(role, "DELETE", "D", "DENY", "DL"),
                grant(role, "INSERT", "G", "GRANT", "IN"),
                grant(role, "SELECT", "G", "GRANT", "SL"),
                grant(user, "ALTER", "G", "GRANT", "AL"),
                grant(user, "CONTROL", "G", "GRANT", "CL"),
                grant(user, "DELETE", "D", "DENY", "DL"),
                grant(user, "REFERENCES", "G", "GRANT", "RF"),
                grant(user, "UPDATE", "W", "GRANT_WITH_GRANT_OPTION", "UP"),
                grant(user, "VIEW DEFINITION", "G", "GRANT", "VW")), grants(table));
    }

    @Test
    void aGrantReplacesADenyAndARevokeRemovesEither() throws SQLException {
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL)");
        exec("DENY SELECT ON " + t() + " TO [" + role + "]");
        exec("GRANT SELECT ON " + t() + " TO [" + role + "]");
        assertEquals(List.of(grant(role, "SELECT", "G", "GRANT", "SL")), grants(table));
        exec("DENY SELECT ON " + t() + " TO [" + role + "]");
        assertEquals(List.of(grant(role, "SELECT", "D", "DENY", "SL")), grants(table));
        exec("REVOKE SELECT ON " + t() + " FROM [" + role + "]");
        assertEquals(List.of(), grants(table));
        exec("GRANT INSERT ON " + t() + " TO [" + role + "]");
        exec("REVOKE INSERT ON " + t() + " TO [" + role + "]");
        assertEquals(List.of(), grants(table));
    }

    @Test
    void aPermissionHeldWithGrantOptionNeedsCascadeToBeRevokedOrDenied() throws SQLException {
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL)");
        exec("GRANT SELECT ON " + t() + " TO [" + user + "] WITH GRANT OPTION");
        SQLException e = assertError(4611, "REVOKE SELECT ON " + t() + " FROM [" + user + "]");
        assertEquals("To revoke or deny grantable privileges, specify the CASCADE option.", e.getMessage());
        assertError(4611, "DENY SELECT ON " + t() + " TO [" + user + "]");
        assertEquals(List.of(grant(user, "SELECT", "W", "GRANT_WITH_GRANT_OPTION", "SL")), grants(table));
        exec("REVOKE GRANT OPTION FOR SELECT ON " + t() + " FROM [" + user + "] CASCADE");
        assertEquals(List.of(grant(user, "SELECT", "G", "GRANT", "SL")), grants(table));
        exec("DENY SELECT ON " + t() + " TO [" + user + "] CASCADE");
        assertEquals(List.of(grant(user, "SELECT", "D", "DENY", "SL")), grants(table));
    }

    @Test
    void anUnknownPrincipalOrObjectIs15151() throws SQLException {
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL)");
        SQLException e = assertError(15151, "GRANT SELECT ON " + t() + " TO [no_such_principal_x]");
        assertEquals("Cannot find the user 'no_such_principal_x', because it does not exist or you do not have"
                + " permission.", e.getMessage());
        e = assertError(15151, "GRANT SELECT ON [dbo].[no_such_table_x] TO [" + role + "]");
        assertEquals("Cannot find the object 'no_such_table_x', because it does not exist or you do not have"
                + " permission.", e.getMessage());
        e = assertError(15151, "DROP ROLE [no_such_role_x]");
        assertEquals("Cannot drop the role 'no_such_role_x', because it does not exist or you do not have"
                + " permission.", e.getMessage());
        e = assertError(15151, "DROP USER [no_such_user_x]");
        assertEquals("Cannot drop the user 'no_such_user_x', because it does not exist or you do not have"
                + " permission.", e.getMessage());
        assertEquals(List.of(), grants(table));
    }

    @Test
    void aGrantInsideATransactionIsUndoneByItsRollback() throws SQLException {
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL)");
        exec("GRANT INSERT ON " + t() + " TO [" + role + "]");
        exec("BEGIN TRAN; GRANT SELECT ON " + t() + " TO [" + role + "]; REVOKE INSERT ON " + t() + " FROM ["
                + role + "]; ROLLBACK");
        assertEquals(List.of(grant(role, "INSERT", "G", "GRANT", "IN")), grants(table));
        exec("BEGIN TRAN; GRANT SELECT ON " + t() + " TO [" + role + "]; COMMIT");
        assertEquals(List.of(grant(role, "INSERT", "G", "GRANT", "IN"), grant(role, "SELECT", "G", "GRANT", "SL")),
                grants(table));
    }

    @Test
    void permissionsBelongToTheObjectDropTableDropsThem() throws SQLException {
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL)");
        exec("GRANT SELECT ON " + t() + " TO [" + role + "]");
        int before = ((Number) scalar("SELECT OBJECT_ID('" + table + "')")).intValue();
        exec("DROP TABLE " + t());
        assertEquals(0, ((Number) scalar("SELECT COUNT(*) FROM sys.database_permissions WHERE class = 1"
                + " AND major_id = " + before)).intValue());
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL)");
        assertEquals(List.of(), grants(table));
    }

    /** "All permissions associated with the securable will be dropped when the securable is moved" (ALTER SCHEMA). */
    @Test
    void aTransferToAnotherSchemaDropsThePermissionsAndARenameKeepsThem() throws SQLException {
        String schema = "s_" + table;
        exec("IF OBJECT_ID('" + schema + "." + table + "') IS NOT NULL DROP TABLE [" + schema + "].[" + table + "]");
        exec("IF SCHEMA_ID('" + schema + "') IS NOT NULL DROP SCHEMA [" + schema + "]");
        exec("CREATE SCHEMA [" + schema + "]");
        try {
            exec("CREATE TABLE " + other() + " ([id] int NOT NULL)");
            exec("GRANT SELECT ON " + other() + " TO [" + role + "]");
            exec("EXEC sp_rename 'dbo." + table + "_src', '" + table + "'");
            assertEquals(List.of(grant(role, "SELECT", "G", "GRANT", "SL")), grants(table));
            Object id = scalar("SELECT OBJECT_ID('dbo." + table + "')");
            exec("ALTER SCHEMA [" + schema + "] TRANSFER [dbo].[" + table + "]");
            assertEquals(id, scalar("SELECT OBJECT_ID('" + schema + "." + table + "')"), "the same object");
            assertEquals(0, ((Number) scalar("SELECT COUNT(*) FROM sys.database_permissions WHERE class = 1"
                    + " AND major_id = OBJECT_ID('" + schema + "." + table + "')")).intValue());
        } finally {
            exec("IF OBJECT_ID('" + schema + "." + table + "') IS NOT NULL DROP TABLE [" + schema + "].[" + table
                    + "]");
            exec("DROP SCHEMA [" + schema + "]");
        }
    }

    @Test
    void truncateInsertAndASwitchInKeepTheTargetsPermissions() throws SQLException {
        String columns = "([id] int NOT NULL PRIMARY KEY, [v] int NULL)";
        exec("CREATE TABLE " + t() + " " + columns);
        exec("CREATE TABLE " + other() + " " + columns);
        exec("GRANT SELECT ON " + t() + " TO [" + role + "]");
        exec("DENY UPDATE ON " + t() + " TO [" + user + "]");
        exec("GRANT INSERT ON " + other() + " TO [" + user + "]");
        List<List<Object>> expected = List.of(grant(role, "SELECT", "G", "GRANT", "SL"),
                grant(user, "UPDATE", "D", "DENY", "UP"));
        Object id = scalar("SELECT OBJECT_ID('" + table + "')");
        exec("INSERT INTO " + t() + " ([id], [v]) VALUES (1, 1)");
        exec("TRUNCATE TABLE " + t());
        assertEquals(expected, grants(table));
        exec("INSERT INTO " + other() + " ([id], [v]) VALUES (1, 10), (2, 20)");
        exec("BEGIN TRAN; ALTER TABLE " + other() + " SWITCH TO " + t() + "; COMMIT");
        assertEquals(2, ((Number) scalar("SELECT COUNT(*) FROM " + t())).intValue());
        assertEquals(id, scalar("SELECT OBJECT_ID('" + table + "')"));
        // each table keeps its own permissions: the rows moved, the metadata did not
        assertEquals(expected, grants(table));
        assertEquals(List.of(grant(user, "INSERT", "G", "GRANT", "IN")), grants(table + "_src"));
    }
}
