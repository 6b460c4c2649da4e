"""A password given by the short option of a database, directory, archive, crypto, Samba or
remote-desktop tool (`sqlcmd -P`, `mongosh -p`, `ldapsearch -w`, `zip -P`, `7z -p…`, `openssl
-passin pass:…`, `keytool -storepass`, `smbclient -U user%…`, `xfreerdp /p:`), by PowerShell
(`-Password`, `ConvertTo-SecureString '…' -AsPlainText`) or by a server's configuration
directive (`requirepass`, `rootpw`) is found; a port, a flag, a prompt or a reference in the
same place is not."""

from __future__ import annotations

import random

import pytest
from secret_samples import ALNUM, rnd

from gitmem.gate.secrets import scan_text

PASSWORD = rnd(14, ALNUM + "!#", random.Random(7272))


TEMPLATES = [
    "sqlcmd -S db.internal -U sa -P {} -Q 'select 1'",
    "bcp dbo.orders out orders.dat -S db -U sa -P '{}' -c",
    "mongosh mongodb://db:27017/admin -u admin -p '{}'",
    "mongodump --host db -u backup -p {} --out /backup",
    "ldapsearch -x -H ldap://dir -D cn=admin,dc=corp -w {} -b dc=corp",
    "zip -P {} backup.zip dump.sql",
    "unzip -P {} backup.zip",
    "7z a -p{} -mhe=on backup.7z dump.sql",
    "7z x -p'{}' backup.7z",
    "rar a -hp{} backup.rar dump",
    "openssl enc -aes-256-cbc -salt -k {} -in dump.sql -out dump.enc",
    "openssl pkcs12 -export -in cert.crt -passout pass:{} -out bundle.out",
    "openssl rsa -in key.enc -passin 'pass:{}' -out key.plain",
    "keytool -importkeystore -srckeystore old.store -srcstorepass {} -destkeystore new.store",
    "jarsigner -keystore release.store -storepass {} app.apk release",
    "New-LocalUser -Name svc-backup -Password {} -NoPassword:$false",
    "smbclient //fileserver/backup -U svc-backup%{} -c 'ls'",
    "smbclient //fileserver/backup -U 'CORP\\svc-backup%{}'",
    "rpcclient -U admin%{} 10.0.0.5",
    "xfreerdp /v:jump.internal /u:admin /p:{} /cert:ignore",
    "cmdkey /generic:TERMSRV/jump /user:admin /pass:{}",
    "$cred = ConvertTo-SecureString '{}' -AsPlainText -Force",
    '$cred = ConvertTo-SecureString -AsPlainText -Force -String "{}"',
    "requirepass {}",
    "redis-cli CONFIG SET requirepass '{}'",
    "masterauth {}",
    "rootpw {}",
]


@pytest.mark.parametrize("template", TEMPLATES)
def test_a_password_given_by_a_tools_short_option_is_found(template: str) -> None:
    findings = scan_text(template.format(PASSWORD))
    assert [f.rule for f in findings] == ["password-assignment"], findings


@pytest.mark.parametrize("template", TEMPLATES)
@pytest.mark.parametrize(
    "placed",
    [
        "To restore the backup, run `{}` on the host, then check the log.",
        "restore:\n  command: {}\n",
        "RESTORE_STEP = '{}'",
    ],
    ids=["in prose", "yaml value", "assigned"],
)
def test_the_command_is_found_in_prose_and_assigned(template: str, placed: str) -> None:
    """The same commands quoted in a sentence, as a YAML value or assigned to a name: where
    a memory entry holds a command, it is one of these."""
    findings = scan_text(placed.format(template.format(PASSWORD)))
    assert "password-assignment" in [f.rule for f in findings], findings


@pytest.mark.parametrize(
    "text",
    [
        "ldapsearch -x -H ldap://dir -p 389 -b dc=corp",
        "sqlcmd -S db -U sa -P $SQL_PASSWORD -Q 'select 1'",
        "mongosh mongodb://db:27017 -u admin -p",
        "zip -r backup.zip dump-2024.sql",
        "ldapsearch -x -W -D cn=admin,dc=corp -b dc=corp",
        "7z x -p archive.7z",
        "unzip -P $ZIP_PASSWORD backup.zip",
        "unzip -p archive.zip notes.txt",
        "zip -p backup-2024.zip reports",
        "7z a -p backup.7z dump.sql",
        "rar a -p- backup.rar dump",
        "openssl pkcs12 -export -in cert.crt -passout env:P12_PASSWORD -out bundle.out",
        "openssl rsa -in key.enc -passin stdin -out key.plain",
        "openssl rsa -passin fd:3 -in key.enc",
        "keytool -list -keystore cacerts -storepass changeit",
        "New-LocalUser -Name svc-backup -Password $securePassword",
        "Set-LocalUser -Name svc -PasswordNeverExpires $true",
        "the -passin option says where the password comes from",
        "smbclient -L fileserver -U svc-backup",
        "smbclient //fileserver/backup -U svc-backup%",
        "the net effect was -U shaped, up 40%",
        "xfreerdp /v:jump.internal /u:admin /p:$RDP_PASSWORD",
        "$cred = ConvertTo-SecureString $plain -AsPlainText -Force",
        "requirepass foobared",
        "# requirepass is commented out, so the server takes no password",
    ],
)
def test_a_tools_option_without_a_password_is_none(text: str) -> None:
    assert scan_text(text) == []
