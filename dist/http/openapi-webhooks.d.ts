export declare const DELIVERY_HEADERS: {
    name: string;
    in: string;
    required: boolean;
    description: string;
    schema: {
        type: string;
        examples?: string[] | undefined;
    };
}[];
/** A JSON copy of a TypeBox schema in which every registered shared schema (by `$id`) becomes a component reference. */
export declare function toDocumentSchema(schema: unknown): unknown;
export declare function webhookPayloadComponents(): Record<string, unknown>;
export declare function webhooksSection(): Record<string, unknown>;
