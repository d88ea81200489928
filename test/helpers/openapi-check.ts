/**
 * Answers checked against an OpenAPI document with tools we did not write: swagger-parser validates the
 * document and resolves its references, Ajv (JSON Schema 2020-12, the dialect OpenAPI 3.1 declares) checks
 * each answer's body against the schema the document gives for its status. Nothing from src/.
 */
import SwaggerParser from "@apidevtools/swagger-parser";
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020.js";

/** The parts of a dereferenced document this checker reads. */
interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: object }> }>;
}
interface Document {
  paths?: Record<string, Record<string, Operation>>;
}

export interface OpenApiAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: unknown;
}

export interface OpenApiChecker {
  /** What is wrong with an answer of `method path`, as the document describes it; empty when nothing. */
  problems(method: string, path: string, answer: OpenApiAnswer): string[];
}

/** Checks the document first (a document that is not valid OpenAPI 3.1 rejects). */
export async function openApiChecker(document: unknown): Promise<OpenApiChecker> {
  await SwaggerParser.validate(structuredClone(document) as never);
  const resolved = (await SwaggerParser.dereference(structuredClone(document) as never)) as unknown as Document;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const compiled = new Map<string, ValidateFunction>();
  return {
    problems(method, path, answer) {
      const operation = resolved.paths?.[path]?.[method.toLowerCase()];
      if (!operation) return [`${method} ${path} is not in the document`];
      const response = operation.responses?.[String(answer.status)];
      if (!response) return [`status ${answer.status} is not documented for ${method} ${path}`];
      const contentType =
        String(answer.headers["content-type"] ?? "")
          .split(";")[0]
          ?.trim() ?? "";
      const media = response.content?.[contentType];
      if (!media?.schema) return [`content type ${JSON.stringify(contentType)} is not documented for ${answer.status}`];
      const id = `${method} ${path} ${answer.status} ${contentType}`;
      let validate = compiled.get(id);
      if (!validate) {
        validate = ajv.compile(media.schema);
        compiled.set(id, validate);
      }
      if (validate(answer.json)) return [];
      return (validate.errors ?? []).map((e) => `${e.instancePath || "(body)"} ${e.message ?? "invalid"}`);
    },
  };
}
