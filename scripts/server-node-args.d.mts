/** Types of server-node-args.mjs (the V8 flags the production server runs with). */
export declare const serverNodeArgs: string[];
