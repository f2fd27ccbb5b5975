import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestPki {
  dir: string;
  caFile: string;
  ca: string;
  key: string;
  cert: string;
  /** A certificate for 127.0.0.1 that no trusted CA signed: TLS must fail. */
  untrustedKey: string;
  untrustedCert: string;
}

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
}

/** A throwaway CA and a server certificate for 127.0.0.1 and localhost, made with the openssl CLI. */
export function makeTestPki(): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'custops-pki-'));
  /** A self-signed certificate `<name>.pem` for `cn` with its key `<name>.key`, valid two days, with the given extensions. */
  const selfSigned = (name: string, cn: string, extensions: string[]) => {
    const args = ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.pem`, '-days', '2', '-subj', `/CN=${cn}`];
    openssl(dir, [...args, ...extensions.flatMap((e) => ['-addext', e])]);
  };
  selfSigned('ca', 'custops test CA', ['basicConstraints=critical,CA:TRUE', 'keyUsage=critical,keyCertSign,cRLSign']);
  openssl(dir, ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1']);
  writeFileSync(join(dir, 'ext.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:rebind.test\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n');
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.pem',
    '-days',
    '2',
    '-extfile',
    'ext.cnf',
  ]);
  selfSigned('rogue', '127.0.0.1', ['subjectAltName=IP:127.0.0.1']);
  const read = (f: string) => readFileSync(join(dir, f), 'utf8');
  return {
    dir,
    caFile: join(dir, 'ca.pem'),
    ca: read('ca.pem'),
    key: read('server.key'),
    cert: read('server.pem'),
    untrustedKey: read('rogue.key'),
    untrustedCert: read('rogue.pem'),
  };
}
