package io.deltafunnel.mssql.direct;

/**
 * A connection setting the direct TDS client does not implement (Kerberos/NTLM, an Entra ID method other than an
 * access token, Always Encrypted, a named instance, ...). The message names the setting, never its value.
 */
public class DirectUnsupportedSettingException extends Exception {

    private static final long serialVersionUID = 1L;

    public DirectUnsupportedSettingException(String message) {
        super(message);
    }
}
