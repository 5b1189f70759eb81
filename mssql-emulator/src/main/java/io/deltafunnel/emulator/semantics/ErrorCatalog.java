package io.deltafunnel.emulator.semantics;

/**
 * The one catalogue of SQL Server message numbers the emulator raises: each entry is a message number with the
 * severity class and state SQL Server reports it with (as the emulator reproduces them) and its message template,
 * written in SQL Server's {@code sys.messages} style ({@code %.*ls} a string argument, {@code %d} a number). The
 * template is documentation: the text the emulator sends is built at the raising site, from the values it has, and
 * the fidelity scenarios assert it byte for byte.
 *
 * <p>Every {@link SqlServerError} the emulator raises comes from here: {@link #error(String)} with the entry's state,
 * {@link #error(int, String)} where SQL Server itself raises the same message from another place with another state
 * (2714 state 5 for a constraint, 6 for a table), {@link #injected(int, int, String)} for numbers that a test injects
 * through {@link Faults}. {@code ErrorCatalogScanTest} fails on any {@code new SqlServerError(} outside this class.
 * Numbers 50000 and above are the emulator's own (50000 is RAISERROR's ad-hoc number); the README lists them.
 *
 * <p>Where the emulator's severity or state differs from SQL Server's documented one, the entry says so; the values
 * stay as they are so that behaviour is unchanged by this catalogue.
 */
public enum ErrorCatalog {
    /** SQL Server message 102. */
    INCORRECT_SYNTAX(102, 15, 1,
            "Incorrect syntax near '%.*ls'."),
    /** SQL Server message 105. */
    UNCLOSED_QUOTATION(105, 15, 1,
            "Unclosed quotation mark after the character string '%.*ls'."),
    /** SQL Server message 113. */
    MISSING_END_COMMENT(113, 15, 1,
            "Missing end comment mark '*/'."),
    /** SQL Server message 117. */
    TOO_MANY_NAME_PREFIXES(117, 15, 1,
            "The %S_MSG name '%.*ls' contains more than the maximum number of prefixes. The maximum is %d."),
    /** SQL Server message 119. */
    NAMED_PARAMETERS_ONLY_AFTER(119, 15, 1,
            "Must pass parameter number %d and subsequent parameters as '@name = value'. After the form '@name = value' has been used, all subsequent parameters must be passed in the form '@name = value'."),
    /** SQL Server message 131. */
    COLUMN_SIZE_TOO_LARGE(131, 15, 2,
            "The size (%d) given to the %S_MSG '%.*ls' exceeds the maximum allowed for any data type (%d)."),
    /** SQL Server message 134. */
    VARIABLE_ALREADY_DECLARED(134, 15, 1,
            "The variable name '%.*ls' has already been declared. Variable names must be unique within a query batch or stored procedure."),
    /** SQL Server message 137. */
    UNDECLARED_VARIABLE(137, 15, 2,
            "Must declare the scalar variable \"%.*ls\"."),
    /** SQL Server message 148. */
    WAITFOR_TIME_SYNTAX(148, 15, 1,
            "Incorrect time syntax in time string '%.*ls' used with WAITFOR."),
    /** SQL Server message 174. */
    FUNCTION_ARGUMENT_COUNT(174, 15, 1,
            "The %.*ls function requires %d argument(s)."),
    /** SQL Server message 183. */
    SCALE_OUT_OF_RANGE(183, 15, 1,
            "The scale (%d) for column '%.*ls' must be within the range %d to %d."),
    /** SQL Server message 195. */
    UNKNOWN_BUILTIN_FUNCTION(195, 15, 10,
            "'%.*ls' is not a recognized %S_MSG."),
    /** SQL Server message 201. */
    PARAMETER_NOT_SUPPLIED(201, 16, 4,
            "Procedure or function '%.*ls' expects parameter '%.*ls', which was not supplied."),
    /** SQL Server message 206. */
    OPERAND_TYPE_CLASH(206, 16, 2,
            "Operand type clash: %ls is incompatible with %ls"),
    /** SQL Server message 207. */
    INVALID_COLUMN_NAME(207, 16, 1,
            "Invalid column name '%.*ls'."),
    /** SQL Server message 208. */
    INVALID_OBJECT_NAME(208, 16, 1,
            "Invalid object name '%.*ls'."),
    /** SQL Server message 214. */
    PARAMETER_TYPE(214, 16, 2,
            "Procedure expects parameter '%ls' of type '%ls'."),
    /** SQL Server message 220. */
    ARITHMETIC_OVERFLOW_FOR_TYPE(220, 16, 2,
            "Arithmetic overflow error for data type %ls, value = %ld."),
    /** SQL Server message 226. */
    NOT_IN_TRANSACTION_STATEMENT(226, 16, 6,
            "%ls statement not allowed within multi-statement transaction."),
    /** SQL Server message 241. */
    DATETIME_CONVERSION_FAILED(241, 16, 1,
            "Conversion failed when converting date and/or time from character string."),
    /** SQL Server message 242. */
    DATETIME_OUT_OF_RANGE(242, 16, 3,
            "The conversion of a %ls data type to a %ls data type resulted in an out-of-range value."),
    /** SQL Server message 245. */
    CONVERSION_FAILED(245, 16, 1,
            "Conversion failed when converting the %ls value '%.*ls' to data type %ls."),
    /** SQL Server message 447. */
    COLLATE_INVALID_TYPE(447, 16, 1,
            "Expression type %ls is invalid for COLLATE clause."),
    /** SQL Server message 515. */
    NULL_NOT_ALLOWED(515, 16, 2,
            "Cannot insert the value NULL into column '%.*ls', table '%.*ls'; column does not allow nulls. %ls fails."),
    /** SQL Server message 544. */
    IDENTITY_INSERT_OFF(544, 16, 1,
            "Cannot insert explicit value for identity column in table '%.*ls' when IDENTITY_INSERT is set to OFF."),
    /** SQL Server message 547. */
    CONSTRAINT_CONFLICT(547, 16, 0,
            "The %ls statement conflicted with the %ls constraint \"%.*ls\". The conflict occurred in database \"%.*ls\", table \"%.*ls\"%ls%.*ls%ls."),
    /** SQL Server message 911. */
    DATABASE_DOES_NOT_EXIST(911, 16, 1,
            "Database '%.*ls' does not exist. Make sure that the name is entered correctly."),
    /** SQL Server message 1002. */
    INVALID_SCALE(1002, 16, 1,
            "Line %d: Specified scale %d is invalid."),
    /** SQL Server message 1038. */
    EMPTY_NAME_PART(1038, 16, 1,
            "Invalid object name '%.*ls'. (SQL Server raises 1038, \"An object or column name is missing or empty\", at severity 15; the emulator's multipart-name parser reports it at 16 with this text.)"),
    /** SQL Server message 1038. */
    EMPTY_COLUMN_NAME(1038, 15, 5,
            "An object or column name is missing or empty. For SELECT INTO statements, verify each column has a name. For other statements, look for empty alias names. Aliases defined as \"\" or [] are not allowed. Change the alias to a valid name."),
    /** SQL Server message 1202. */
    NO_SUCH_PRINCIPAL(1202, 16, 1,
            "The database-principal '%.*ls' does not exist or user is not a member."),
    /** SQL Server message 1205. */
    DEADLOCK_VICTIM(1205, 13, 51,
            "Transaction (Process ID %d) was deadlocked on %.*ls resources with another process and has been chosen as the deadlock victim. Rerun the transaction."),
    /** SQL Server message 1222. */
    LOCK_TIMEOUT(1222, 16, 56,
            "Lock request time out period exceeded."),
    /** SQL Server message 1223. */
    APPLOCK_NOT_HELD(1223, 16, 1,
            "Cannot release the application lock (Database Principal: '%.*ls', Resource: '%.*ls') because it is not currently held."),
    /** SQL Server message 1224. */
    APPLOCK_INVALID_RESOURCE(1224, 16, 1,
            "An invalid application lock resource was passed to %ls."),
    /** SQL Server message 1225. */
    APPLOCK_INVALID_MODE(1225, 16, 1,
            "An invalid application lock mode was passed to %ls."),
    /** SQL Server message 1226. */
    APPLOCK_INVALID_OWNER(1226, 16, 1,
            "An invalid application lock owner was passed to %ls."),
    /** SQL Server message 1227. */
    APPLOCK_INVALID_TIMEOUT(1227, 16, 2,
            "An invalid application lock time-out was passed to %ls."),
    /** SQL Server message 1230. */
    APPLOCK_INVALID_PRINCIPAL(1230, 16, 1,
            "An invalid database principal was passed to %ls."),
    /** SQL Server message 1505. */
    DUPLICATE_KEY_FOUND(1505, 16, 1,
            "The CREATE UNIQUE INDEX statement terminated because a duplicate key was found for the object name '%.*ls' and the index name '%.*ls'. The duplicate key value is %ls."),
    /** SQL Server message 1767. */
    FK_INVALID_TABLE(1767, 16, 0,
            "Foreign key '%.*ls' references invalid table '%.*ls'."),
    /** SQL Server message 1769. */
    FK_INVALID_REFERENCING_COLUMN(1769, 16, 1,
            "Foreign key '%.*ls' references invalid column '%.*ls' in referencing table '%.*ls'."),
    /** SQL Server message 1770. */
    FK_INVALID_REFERENCED_COLUMN(1770, 16, 0,
            "Foreign key '%.*ls' references invalid column '%.*ls' in referenced table '%.*ls'."),
    /** SQL Server message 1773. */
    FK_NO_PRIMARY_KEY(1773, 16, 0,
            "Foreign key '%.*ls' has implicit reference to object '%.*ls' which does not have a primary key defined on it."),
    /** SQL Server message 1776. */
    FK_NO_MATCHING_KEY(1776, 16, 0,
            "There are no primary or candidate keys in the referenced table '%.*ls' that match the referencing column list in the foreign key '%.*ls'."),
    /** SQL Server message 1911. */
    KEY_COLUMN_MISSING(1911, 16, 1,
            "Column name '%.*ls' does not exist in the target table or view."),
    /** SQL Server message 2601. */
    DUPLICATE_KEY_ROW(2601, 14, 1,
            "Cannot insert duplicate key row in object '%.*ls' with unique index '%.*ls'. The duplicate key value is %ls."),
    /** SQL Server message 2627. */
    DUPLICATE_KEY(2627, 14, 1,
            "Violation of %ls constraint '%.*ls'. Cannot insert duplicate key in object '%.*ls'. The duplicate key value is %ls."),
    /** SQL Server message 2628. */
    STRING_TRUNCATED(2628, 16, 1,
            "String or binary data would be truncated in table '%.*ls', column '%.*ls'. Truncated value: '%.*ls'."),
    /** SQL Server message 2705. */
    DUPLICATE_COLUMN_NAME(2705, 16, 4,
            "Column names in each table must be unique. Column name '%.*ls' in table '%.*ls' is specified more than once."),
    /** SQL Server message 2714. */
    OBJECT_EXISTS(2714, 16, 6,
            "There is already an object named '%.*ls' in the database."),
    /** SQL Server message 2715. */
    UNKNOWN_DATA_TYPE(2715, 16, 6,
            "Column, parameter, or variable #%d: Cannot find data type %.*ls."),
    /** SQL Server message 2749. */
    IDENTITY_COLUMN_TYPE(2749, 16, 2,
            "Identity column '%.*ls' must be of data type int, bigint, smallint, tinyint, or decimal or numeric with a scale of 0, and constrained to be nonnullable."),
    /** SQL Server message 2750. */
    PRECISION_TOO_LARGE(2750, 16, 1,
            "Column or parameter #%d: Specified column precision %d is greater than the maximum precision of %d."),
    /** SQL Server message 2760. */
    NO_SUCH_SCHEMA(2760, 16, 1,
            "The specified schema name \"%.*ls\" either does not exist or you do not have permission to use it."),
    /** SQL Server message 2812. */
    NO_SUCH_PROCEDURE(2812, 16, 62,
            "Could not find stored procedure '%.*ls'."),
    /** SQL Server message 3701. */
    CANNOT_DROP_SCHEMA(3701, 16, 1,
            "Cannot drop the %S_MSG '%.*ls', because it does not exist or you do not have permission. (SQL Server's severity is 11; the emulator reports DROP SCHEMA at 16.)"),
    /** SQL Server message 3701. */
    CANNOT_DROP_TABLE(3701, 11, 5,
            "Cannot drop the %S_MSG '%.*ls', because it does not exist or you do not have permission."),
    /** SQL Server message 3726. */
    DROP_REFERENCED_BY_FK(3726, 16, 1,
            "Could not drop object '%.*ls' because it is referenced by a FOREIGN KEY constraint."),
    /** SQL Server message 3729. */
    SCHEMA_REFERENCED(3729, 16, 1,
            "Cannot %ls '%.*ls' because it is being referenced by object '%.*ls'."),
    /** SQL Server message 3902. */
    COMMIT_WITHOUT_BEGIN(3902, 16, 1,
            "The COMMIT TRANSACTION request has no corresponding BEGIN TRANSACTION."),
    /** SQL Server message 3903. */
    ROLLBACK_WITHOUT_BEGIN(3903, 16, 1,
            "The ROLLBACK TRANSACTION request has no corresponding BEGIN TRANSACTION."),
    /** SQL Server message 3910. */
    TRANSACTION_IN_USE(3910, 16, 1,
            "Transaction context in use by another session."),
    /** SQL Server message 3918. */
    NEEDS_USER_TRANSACTION(3918, 16, 1,
            "The statement or function must be executed in the context of a user transaction."),
    /** SQL Server message 4701. */
    CANNOT_FIND_OBJECT(4701, 16, 1,
            "Cannot find the object \"%.*ls\" because it does not exist or you do not have permissions."),
    /** SQL Server message 4712. */
    TRUNCATE_REFERENCED_BY_FK(4712, 16, 1,
            "Cannot truncate table '%.*ls' because it is being referenced by a FOREIGN KEY constraint."),
    /** SQL Server message 4804. */
    BULK_PREMATURE_END(4804, 16, 1,
            "While reading current row from host, a premature end-of-message was encountered--an incoming data stream was interrupted when the server expected to see more data. The host program may have terminated. Ensure that you are using a supported client application programming interface (API)."),
    /** SQL Server message 4806. */
    BULK_NOT_PREPARED(4806, 16, 1,
            "mssql-emulator: BULK_LOAD received without a preceding INSERT BULK statement. (the emulator reports this protocol misuse under 4806.)"),
    /** SQL Server message 4815. */
    BULK_INVALID_COLUMN_LENGTH(4815, 16, 1,
            "Received an invalid column length from the bcp client for colid %d."),
    /** SQL Server message 4816. */
    BULK_INVALID_COLUMN_TYPE(4816, 16, 1,
            "Invalid column type from bcp client for colid %d."),
    /** SQL Server message 4819. */
    BULK_NOT_SORTED(4819, 16, 1,
            "Cannot bulk load. The bulk data stream was incorrectly specified as sorted or the data violates a uniqueness constraint imposed by the target table. Sort order incorrect for the following two rows: primary key of first row: %ls, primary key of second row: %ls."),
    /** SQL Server message 5011. */
    ALTER_DATABASE_DENIED(5011, 14, 9,
            "User does not have permission to alter database '%.*ls', the database does not exist, or the database is not in a state that allows access checks."),
    /** SQL Server message 5058. */
    OPTION_CANNOT_BE_SET(5058, 16, 3,
            "Option '%.*ls' cannot be set in database '%.*ls'."),
    /** SQL Server message 5070. */
    DATABASE_IN_USE(5070, 16, 2,
            "Database state cannot be changed while other users are using the database '%.*ls'"),
    /** SQL Server message 8101. */
    IDENTITY_NEEDS_COLUMN_LIST(8101, 16, 1,
            "An explicit value for the identity column in table '%.*ls' can only be specified when a column list is used and IDENTITY_INSERT is ON."),
    /** SQL Server message 8102. */
    IDENTITY_UPDATE(8102, 16, 1,
            "Cannot update identity column '%.*ls'."),
    /** SQL Server message 8106. */
    NO_IDENTITY_PROPERTY(8106, 16, 1,
            "Table '%.*ls' does not have the identity property. Cannot perform SET operation."),
    /** SQL Server message 8107. */
    IDENTITY_INSERT_ALREADY_ON(8107, 16, 1,
            "IDENTITY_INSERT is already ON for table '%.*ls'. Cannot perform SET operation for table '%.*ls'."),
    /** SQL Server message 8110. */
    MULTIPLE_PRIMARY_KEYS(8110, 16, 1,
            "Cannot add multiple PRIMARY KEY constraints to table '%.*ls'."),
    /** SQL Server message 8111. */
    NULLABLE_PRIMARY_KEY_COLUMN(8111, 16, 1,
            "Cannot define PRIMARY KEY constraint on nullable column in table '%.*ls'."),
    /** SQL Server message 8114. */
    CONVERSION_ERROR(8114, 16, 5,
            "Error converting data type %ls to %ls."),
    /** SQL Server message 8115. */
    ARITHMETIC_OVERFLOW(8115, 16, 2,
            "Arithmetic overflow error converting %ls to data type %ls."),
    /** SQL Server message 8134. */
    DIVIDE_BY_ZERO(8134, 16, 1,
            "Divide by zero error encountered."),
    /** SQL Server message 8139. */
    FK_COLUMN_COUNT(8139, 16, 0,
            "Number of referencing columns in foreign key differs from number of referenced columns, table '%.*ls'."),
    /** SQL Server message 8143. */
    PARAMETER_REPEATED(8143, 16, 1,
            "Parameter '%.*ls' was supplied multiple times."),
    /** SQL Server message 8144. */
    TOO_MANY_ARGUMENTS(8144, 16, 2,
            "Procedure or function %.*ls has too many arguments specified."),
    /** SQL Server message 8145. */
    NOT_A_PARAMETER(8145, 16, 2,
            "%.*ls is not a parameter for procedure %.*ls."),
    /** SQL Server message 8147. */
    IDENTITY_ON_NULLABLE(8147, 16, 1,
            "Could not create IDENTITY attribute on nullable column '%.*ls', table '%.*ls'."),
    /** SQL Server message 8169. */
    UNIQUEIDENTIFIER_CONVERSION(8169, 16, 2,
            "Conversion failed when converting from a character string to uniqueidentifier."),
    /** SQL Server message 8178. */
    PARAMETERIZED_QUERY_MISSING(8178, 16, 1,
            "The parameterized query '%.*ls' expects the parameter '%.*ls', which was not supplied."),
    /** SQL Server message 8179. */
    NO_PREPARED_HANDLE(8179, 16, 1,
            "Could not find prepared statement with handle %d."),
    /** SQL Server message 8672. */
    MERGE_SAME_ROW_TWICE(8672, 16, 1,
            "The MERGE statement attempted to UPDATE or DELETE the same row more than once. This happens when a target row matches more than one source row. A MERGE statement cannot UPDATE/DELETE the same row of the target table multiple times. Refine the ON clause to ensure a target row matches at most one source row, or use the GROUP BY clause to group the source rows."),
    // ---- ALTER TABLE ADD / ALTER COLUMN and savepoints (issue 25) ----
    /** SQL Server message 628. */
    SAVE_WITHOUT_TRANSACTION(628, 16, 0,
            "Cannot issue SAVE TRANSACTION when there is no active transaction."),
    /** SQL Server message 4901. */
    ADD_COLUMN_NOT_NULL(4901, 16, 1,
            "ALTER TABLE only allows columns to be added that can contain nulls, or have a DEFAULT definition specified, or the column being added is an identity or timestamp column, or alternatively if none of the previous conditions are satisfied the table must be empty to allow addition of this column. Column '%.*ls' cannot be added to non-empty table '%.*ls' because it does not satisfy these conditions."),
    /** SQL Server message 4902. */
    ALTER_TABLE_NO_OBJECT(4902, 16, 1,
            "Cannot find the object \"%.*ls\" because it does not exist or you do not have permissions."),
    /** SQL Server message 4922. */
    ALTER_COLUMN_OBJECTS_ACCESS(4922, 16, 9,
            "ALTER TABLE ALTER COLUMN %.*ls failed because one or more objects access this column."),
    /** SQL Server message 4924. */
    ALTER_COLUMN_NO_COLUMN(4924, 16, 1,
            "%ls failed because column '%.*ls' does not exist in table '%.*ls'."),
    /** SQL Server message 5074. */
    OBJECT_DEPENDS_ON_COLUMN(5074, 16, 1,
            "The %S_MSG '%.*ls' is dependent on %S_MSG '%.*ls'."),
    /** SQL Server message 6401. */
    NO_SUCH_SAVEPOINT(6401, 16, 1,
            "Cannot roll back %.*ls. No transaction or savepoint of that name was found."),
    // ---- end of issue 25's block ----
    /** SQL Server message 4611 (REVOKE or DENY of a permission held WITH GRANT OPTION, without CASCADE). */
    GRANTABLE_NEEDS_CASCADE(4611, 16, 1,
            "To revoke or deny grantable privileges, specify the CASCADE option."),
    /** SQL Server message 15023 (CREATE ROLE / CREATE USER of a name in use by a user or role). */
    PRINCIPAL_EXISTS(15023, 16, 1,
            "User, group, or role '%s' already exists in the current database."),
    /**
     * SQL Server message 15151: a schema (ALTER SCHEMA), a principal or a securable (GRANT: "find the user", "find
     * the object"; DROP ROLE/USER: "drop the role").
     */
    NOT_FOUND_OR_NO_PERMISSION(15151, 16, 1,
            "Cannot %S_MSG '%.*ls', because it does not exist or you do not have permission."),
    /** SQL Server message 15248. */
    RENAME_AMBIGUOUS(15248, 16, 1,
            "Either the parameter @objname is ambiguous or the claimed @objtype (%ls) is wrong."),
    /** SQL Server message 15335. */
    RENAME_NAME_IN_USE(15335, 16, 1,
            "Error: The new name '%ls' is already in use as a %ls name and would cause a duplicate that is not permitted."),
    /** SQL Server message 15530. */
    TRANSFER_NAME_EXISTS(15530, 16, 1,
            "The %S_MSG with name \"%.*ls\" already exists."),
    /** SQL Server message 15477. */
    RENAME_CAUTION(15477, 0, 1,
            "Caution: Changing any part of an object name could break scripts and stored procedures."),
    /** SQL Server message 15625. */
    APPLOCK_OPTION_NOT_RECOGNIZED(15625, 0, 1,
            "Option '%ls' not recognized for '%ls' parameter."),
    /** SQL Server message 15626. */
    APPLOCK_NO_TRANSACTION(15626, 0, 1,
            "You attempted to acquire a transactional application lock without an active transaction."),
    /** SQL Server message 18456. */
    LOGIN_FAILED(18456, 14, 1,
            "Login failed for user '%.*ls'.%.*ls%.*ls"),
    /** SQL Server message 5701. */
    DATABASE_CONTEXT_CHANGED(5701, 0, 2,
            "Changed database context to '%.*ls'."),
    // ---- ALTER TABLE ... SWITCH and CREATE CLUSTERED INDEX (issue 26). Texts: "Database engine events and errors
    // (4000 to 4999)", https://learn.microsoft.com/en-us/sql/relational-databases/errors-events/database-engine-events-and-errors-4000-to-4999
    /** SQL Server message 1779. */
    SECOND_PRIMARY_KEY(1779, 16, 0,
            "Table '%.*ls' already has a primary key defined on it."),
    /** SQL Server message 1902. */
    SECOND_CLUSTERED_INDEX(1902, 16, 3,
            "Cannot create more than one clustered index on %S_MSG '%.*ls'. Drop the existing clustered index '%.*ls' before creating another."),
    /** SQL Server message 4903 (a warning, severity 10; the emulator sends INFO tokens with class 0). */
    SWITCH_PARTITION_IGNORED(4903, 0, 1,
            "Warning: The specified partition %d for the table '%.*ls' was ignored in ALTER TABLE SWITCH statement because the table is not partitioned."),
    /** SQL Server message 4905. */
    SWITCH_TARGET_NOT_EMPTY(4905, 16, 1,
            "ALTER TABLE SWITCH statement failed. The target table '%.*ls' must be empty."),
    /** SQL Server message 4913. */
    SWITCH_CLUSTERED_INDEX_MISMATCH(4913, 16, 1,
            "ALTER TABLE SWITCH statement failed. The table '%.*ls' has clustered index '%.*ls' while the table '%.*ls' does not have clustered index."),
    /** SQL Server message 4942. */
    SWITCH_COLUMN_NAME_MISMATCH(4942, 16, 1,
            "ALTER TABLE SWITCH statement failed because column '%.*ls' at ordinal %d in table '%.*ls' has a different name than the column '%.*ls' at the same ordinal in table '%.*ls'."),
    /** SQL Server message 4943. */
    SWITCH_COLUMN_COUNT_MISMATCH(4943, 16, 1,
            "ALTER TABLE SWITCH statement failed because table '%.*ls' has %d columns and table '%.*ls' has %d columns."),
    /** SQL Server message 4944. */
    SWITCH_COLUMN_TYPE_MISMATCH(4944, 16, 1,
            "ALTER TABLE SWITCH statement failed because column '%.*ls' has data type %s in source table '%.*ls' which is different from its type %s in target table '%.*ls'."),
    /** SQL Server message 4945. */
    SWITCH_COLLATION_MISMATCH(4945, 16, 1,
            "ALTER TABLE SWITCH statement failed because column '%.*ls' does not have the same collation in tables '%.*ls' and '%.*ls'."),
    /** SQL Server message 4947. */
    SWITCH_INDEX_MISMATCH(4947, 16, 1,
            "ALTER TABLE SWITCH statement failed. There is no identical index in source table '%.*ls' for the index '%.*ls' in target table '%.*ls' ."),
    /** SQL Server message 4955. */
    SWITCH_SAME_TABLE(4955, 16, 1,
            "ALTER TABLE SWITCH statement failed. The source table '%.*ls' and target table '%.*ls' are same."),
    /** SQL Server message 4960. */
    SWITCH_CHECK_NOT_TRUSTED(4960, 16, 1,
            "ALTER TABLE SWITCH statement failed. Check constraint '%.*ls' in source table '%.*ls' is NOCHECK constraint but the matching check constraint '%.*ls' in target table '%.*ls' is CHECK."),
    /** SQL Server message 4967. */
    SWITCH_SOURCE_REFERENCED(4967, 16, 1,
            "ALTER TABLE SWITCH statement failed. SWITCH is not allowed because source table '%.*ls' contains primary key for constraint '%.*ls'."),
    /** SQL Server message 4968. */
    SWITCH_FOREIGN_KEY_MISSING(4968, 16, 1,
            "ALTER TABLE SWITCH statement failed. Target table '%.*ls' has foreign key for constraint '%.*ls' but source table '%.*ls' does not have corresponding key."),
    /** SQL Server message 4972. */
    SWITCH_CHECK_MISSING(4972, 16, 1,
            "ALTER TABLE SWITCH statement failed. Check constraints or partition function of source table '%.*ls' allows values that are not allowed by check constraints or partition function on target table '%.*ls'."),
    /** SQL Server message 4974. */
    SWITCH_FOREIGN_KEY_NOT_TRUSTED(4974, 16, 1,
            "ALTER TABLE SWITCH statement failed. Foreign key constraint '%.*ls' is NOCHECK in source table '%.*ls' and the corresponding constraint '%.*ls' is CHECK in target table '%.*ls'. The source table constraint must be in CHECK."),
    /** SQL Server message 4985. */
    SWITCH_NULLABILITY_MISMATCH(4985, 16, 1,
            "ALTER TABLE SWITCH statement failed because column '%.*ls' does not have the same nullability attribute in tables '%.*ls' and '%.*ls'."),
    /** SQL Server message 13609 (a json column or CAST to json given text that is not JSON). */
    JSON_NOT_PROPERLY_FORMATTED(13609, 16, 1,
            "JSON text is not properly formatted. Unexpected character '%lc' is found at position %d."),
    /**
     * SQL Server message 13670: a value converted to vector that is not a JSON array of numbers (the vector data
     * type page documents the number; the emulator's text is its own, README).
     */
    VECTOR_CONVERSION_FAILED(13670, 16, 1,
            "The value cannot be converted to vector: a JSON array of numbers is expected."),
    /**
     * SQL Server message 42204: a vector whose element count differs from the column's dimensions (number from the
     * vector data type page; the emulator's text is its own, README).
     */
    VECTOR_DIMENSION_MISMATCH(42204, 16, 1,
            "The vector dimensions %d and %d do not match."),
    /** SQL Server message 50000. */
    EMULATOR_ERROR(50000, 16, 1,
            "mssql-emulator: %s (50000 is the number RAISERROR uses for ad-hoc messages; the emulator reports its own internal failures with it.)"),
    /** SQL Server message 50100. */
    UNSUPPORTED(50100, 16, 1,
            "mssql-emulator does not support: %s (emulator-only number: a statement or feature the emulator refuses.)"),
    /** SQL Server message 50101. */
    DDL_IN_TRANSACTION(50101, 16, 1,
            "mssql-emulator does not support this DDL statement inside a transaction (H2 would silently commit the transaction): %s (emulator-only number.)");

    private final int number;
    private final int severity;
    private final int state;
    private final String template;

    ErrorCatalog(int number, int severity, int state, String template) {
        this.number = number;
        this.severity = severity;
        this.state = state;
        this.template = template;
    }

    /** The SQL Server message number. */
    public int number() {
        return number;
    }

    /** The severity class the emulator reports this message with (0 for an INFO message). */
    public int severity() {
        return severity;
    }

    /** The state the emulator reports unless the raising site names another. */
    public int state() {
        return state;
    }

    /** The message template in {@code sys.messages} style (documentation; the site renders the text). */
    public String template() {
        return template;
    }

    /** This error with the entry's state and severity and the rendered {@code message}. */
    public SqlServerError error(String message) {
        return new SqlServerError(number, state, severity, message);
    }

    /** This error with the entry's state and severity, the rendered {@code message} and its {@code cause}. */
    public SqlServerError error(String message, Throwable cause) {
        SqlServerError e = new SqlServerError(number, state, severity, message);
        e.initCause(cause);
        return e;
    }

    /** This error raised with another {@code state} (SQL Server's state names the place that raised it). */
    public SqlServerError error(int state, String message) {
        return new SqlServerError(number, state, severity, message);
    }

    /**
     * This error with another state and severity: only for 4804, which SQL Server raises at 16 for a malformed
     * stream and at 17 when a column value cannot be read.
     */
    public SqlServerError error(int state, int severity, String message) {
        return new SqlServerError(number, state, severity, message);
    }

    /**
     * An error whose number a test chose through {@link Faults} (the point of fault injection is to raise any number
     * the component must classify), so it cannot be a catalogue entry.
     */
    public static SqlServerError injected(int number, int severity, String message) {
        return new SqlServerError(number, 1, severity, message);
    }
}
