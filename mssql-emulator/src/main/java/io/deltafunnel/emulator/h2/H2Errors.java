package io.deltafunnel.emulator.h2;

import io.deltafunnel.emulator.semantics.Catalog;
import io.deltafunnel.emulator.semantics.Constraints;
import io.deltafunnel.emulator.semantics.DuplicateKeys;
import io.deltafunnel.emulator.semantics.ErrorCatalog;
import io.deltafunnel.emulator.semantics.SqlServerError;
import io.deltafunnel.emulator.semantics.TableDef;
import java.sql.SQLException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.h2.api.ErrorCode;

/** Translates H2 failures into the SQL Server errors a client would get for the same statement. */
public final class H2Errors {
    private static final Pattern QUOTED = Pattern.compile("\"((?:[^\"]|\"\")*)\"");

    private H2Errors() {
    }

    /** {@code table} (may be null) names the statement's target for messages. */
    public static SqlServerError map(SQLException e, TableDef table, String database) {
        return map(e, table, null, database, "INSERT");
    }

    /**
     * As {@link #map(SQLException, TableDef, String)}; {@code catalog} (may be null) supplies the constraint names
     * and kinds for 2601/2627/547, {@code verb} (INSERT, UPDATE, DELETE, MERGE) the statement in 547 messages.
     */
    public static SqlServerError map(SQLException e, TableDef table, Catalog catalog, String database, String verb) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof NormalizeTrigger.TriggerError) {
                return ((NormalizeTrigger.TriggerError) c).error;
            }
        }
        // a failed JDBC batch (bulk rows) chains the row's error as the next exception
        for (SQLException n = e.getNextException(); n != null; n = n.getNextException()) {
            for (Throwable c = n; c != null; c = c.getCause()) {
                if (c instanceof NormalizeTrigger.TriggerError) {
                    return ((NormalizeTrigger.TriggerError) c).error;
                }
            }
        }
        String h2 = firstLine(e.getMessage());
        String tableName = table == null ? "?" : table.messageName(database);
        String firstQuoted = firstQuoted(h2);
        switch (e.getErrorCode()) {
            case ErrorCode.NULL_NOT_ALLOWED:
                return ErrorCatalog.NULL_NOT_ALLOWED.error("Cannot insert the value NULL into column '"
                        + columnOnly(firstQuoted) + "', table '" + tableName
                        + "'; column does not allow nulls. INSERT fails.");
            case ErrorCode.VALUE_TOO_LONG_2:
                return ErrorCatalog.STRING_TRUNCATED.error("String or binary data would be truncated in table '"
                        + tableName + "', column '" + columnOnly(firstQuoted) + "'. Truncated value: ''.");
            case ErrorCode.NUMERIC_VALUE_OUT_OF_RANGE_1:
            case ErrorCode.NUMERIC_VALUE_OUT_OF_RANGE_2:
                return ErrorCatalog.ARITHMETIC_OVERFLOW.error("Arithmetic overflow error converting expression to data"
                        + " type. (" + h2 + ")");
            case ErrorCode.DATA_CONVERSION_ERROR_1:
                return ErrorCatalog.CONVERSION_FAILED.error("Conversion failed: " + h2);
            case ErrorCode.INVALID_DATETIME_CONSTANT_2:
                return ErrorCatalog.DATETIME_CONVERSION_FAILED.error(
                        "Conversion failed when converting date and/or time from character string.");
            case ErrorCode.DUPLICATE_KEY_1:
                if (h2.contains("duplicate _ROWID_ target record already processed")) {
                    return ErrorCatalog.MERGE_SAME_ROW_TWICE.error(
                            "The MERGE statement attempted to UPDATE or DELETE the same"
                            + " row more than once. This happens when a target row matches more than one source row."
                            + " A MERGE statement cannot UPDATE/DELETE the same row of the target table multiple"
                            + " times. Refine the ON clause to ensure a target row matches at most one source row, or"
                            + " use the GROUP BY clause to group the source rows.");
                }
                if (table != null && catalog != null) {
                    SqlServerError dup = DuplicateKeys.error(firstQuoted, table, catalog);
                    if (dup != null) {
                        return dup;
                    }
                }
                return ErrorCatalog.DUPLICATE_KEY.error("Violation of PRIMARY KEY or UNIQUE constraint. Cannot insert"
                        + " duplicate key in object '" + (table == null ? "?" : table.schema() + "." + table.name())
                        + "'. (" + h2 + ")");
            case ErrorCode.CHECK_CONSTRAINT_VIOLATED_1:
                if (table != null && catalog != null && e.getErrorCode() == ErrorCode.CHECK_CONSTRAINT_VIOLATED_1) {
                    String name = firstQuoted.contains(":") ? firstQuoted.substring(0, firstQuoted.indexOf(':'))
                            : firstQuoted;
                    for (Constraints.Check c : catalog.checks(table.objectId())) {
                        if (c.name.equalsIgnoreCase(name)) {
                            return ErrorCatalog.CONSTRAINT_CONFLICT.error(
                                    "The " + verb + " statement conflicted with the CHECK"
                                    + " constraint \"" + c.name + "\". The conflict occurred in database \"" + database
                                    + "\", table \"" + table.schema() + "." + table.name() + "\""
                                    + (c.column == null ? "" : ", column '" + c.column + "'") + ".");
                        }
                    }
                }
                // fall through
            case ErrorCode.REFERENTIAL_INTEGRITY_VIOLATED_PARENT_MISSING_1:
            case ErrorCode.REFERENTIAL_INTEGRITY_VIOLATED_CHILD_EXISTS_1:
                return ErrorCatalog.CONSTRAINT_CONFLICT.error(
                        "The statement conflicted with a constraint. (" + h2 + ")");
            case ErrorCode.TABLE_OR_VIEW_NOT_FOUND_1:
            case ErrorCode.TABLE_OR_VIEW_NOT_FOUND_DATABASE_EMPTY_1:
            case ErrorCode.TABLE_OR_VIEW_NOT_FOUND_WITH_CANDIDATES_2:
                return ErrorCatalog.INVALID_OBJECT_NAME.error("Invalid object name '" + unquote(firstQuoted) + "'.");
            case ErrorCode.COLUMN_NOT_FOUND_1:
                return ErrorCatalog.INVALID_COLUMN_NAME.error("Invalid column name '" + columnOnly(firstQuoted) + "'.");
            case ErrorCode.DUPLICATE_COLUMN_NAME_1:
                return ErrorCatalog.DUPLICATE_COLUMN_NAME.error("Column names in each table must be unique. Column name '"
                        + columnOnly(firstQuoted) + "' in table '" + (table == null ? "?" : table.name())
                        + "' is specified more than once.");
            case ErrorCode.TABLE_OR_VIEW_ALREADY_EXISTS_1:
                return ErrorCatalog.OBJECT_EXISTS.error("There is already an object named '"
                        + columnOnly(firstQuoted) + "' in the database.");
            case ErrorCode.DEADLOCK_1:
                return ErrorCatalog.DEADLOCK_VICTIM.error("Transaction was deadlocked on lock resources with another"
                        + " process and has been chosen as the deadlock victim. Rerun the transaction.");
            case ErrorCode.LOCK_TIMEOUT_1:
                return ErrorCatalog.LOCK_TIMEOUT.error("Lock request time out period exceeded.");
            case ErrorCode.DIVISION_BY_ZERO_1:
                return ErrorCatalog.DIVIDE_BY_ZERO.error("Divide by zero error encountered.");
            case ErrorCode.SCHEMA_NOT_FOUND_1:
                return ErrorCatalog.NO_SUCH_SCHEMA.error("The specified schema name \"" + unquote(firstQuoted)
                        + "\" either does not exist or you do not have permission to use it.");
            case ErrorCode.SYNTAX_ERROR_1:
            case ErrorCode.SYNTAX_ERROR_2:
                return ErrorCatalog.INCORRECT_SYNTAX.error("Incorrect syntax (mssql-emulator/H2: " + h2 + ")");
            case ErrorCode.FUNCTION_NOT_FOUND_1:
                return ErrorCatalog.UNKNOWN_BUILTIN_FUNCTION.error("'" + unquote(firstQuoted)
                        + "' is not a recognized built-in function name.");
            default:
                return ErrorCatalog.EMULATOR_ERROR.error("mssql-emulator: H2 error " + e.getErrorCode() + ": " + h2, e);
        }
    }

    private static String firstLine(String m) {
        if (m == null) {
            return "";
        }
        int i = m.indexOf("; SQL statement");
        return i > 0 ? m.substring(0, i) : m;
    }

    private static String firstQuoted(String m) {
        Matcher x = QUOTED.matcher(m);
        return x.find() ? x.group(1).replace("\"\"", "\"") : "?";
    }

    /** H2 often says "TABLE.COLUMN" or "COLUMN TYPE(n)": keep the column name. */
    private static String columnOnly(String s) {
        String v = s;
        int sp = v.indexOf(' ');
        if (sp > 0) {
            v = v.substring(0, sp);
        }
        int dot = v.lastIndexOf('.');
        return dot >= 0 ? v.substring(dot + 1) : v;
    }

    private static String unquote(String s) {
        return s;
    }
}
