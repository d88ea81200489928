/**
 * A private certificate authority for tests, made with openssl: a CA, and a server certificate it signed
 * for 127.0.0.1 and reports.example.test, as a company's own CA would sign its services' certificates.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./temp";

export interface TestCertificates {
  /** The CA's certificate (PEM), what NODE_EXTRA_CA_CERTS names. */
  caPath: string;
  key: Buffer;
  cert: Buffer;
}

const OPENSSL = "/usr/bin/openssl";

export function makeCertificates(): TestCertificates {
  const dir = tempDir("adreport-tls-");
  const at = (name: string) => join(dir, name);
  const run = (args: string[]) => execFileSync(OPENSSL, args, { stdio: ["ignore", "ignore", "pipe"] });
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  run([
    "req",
    "-x509",
    ...ec,
    "-keyout",
    at("ca.key"),
    "-out",
    at("ca.pem"),
    "-days",
    "2",
    "-subj",
    "/CN=adreport test CA",
  ]);
  run(["req", ...ec, "-keyout", at("server.key"), "-out", at("server.csr"), "-subj", "/CN=reports.example.test"]);
  writeFileSync(
    at("ext.cnf"),
    "subjectAltName=IP:127.0.0.1,DNS:reports.example.test\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n",
  );
  run([
    "x509",
    "-req",
    "-in",
    at("server.csr"),
    "-CA",
    at("ca.pem"),
    "-CAkey",
    at("ca.key"),
    "-CAcreateserial",
    "-out",
    at("server.pem"),
    "-days",
    "2",
    "-extfile",
    at("ext.cnf"),
  ]);
  return { caPath: at("ca.pem"), key: readFileSync(at("server.key")), cert: readFileSync(at("server.pem")) };
}
