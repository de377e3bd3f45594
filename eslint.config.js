// ESLint (flat config), run by `npm run lint` and by `npm test` before the type check.
// typescript-eslint's recommended rules, React's rules of hooks and jsx-a11y's
// recommended accessibility rules; formatting is Prettier's job (`npm run format`).
import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "build/",
      "build-*/",
      ".react-router/",
      "node_modules/",
      "public/",
      "test-results/",
      "playwright-report/",
      "bench-results/",
      ".data*/",
      "drizzle/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      // `_name` marks a parameter or binding kept on purpose (a positional argument, a rest sibling).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true },
      ],
      // Empty catch blocks are deliberate where a failure has nothing to add (each says why).
      "no-empty": ["error", { allowEmptyCatch: true }],
    },
  },
  {
    files: ["**/*.{tsx,jsx}"],
    ...jsxA11y.flatConfigs.recommended,
  },
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
    },
  },
  {
    // zod through app/lib/zod.ts only: it turns off zod's code generation, which the CSP refuses.
    files: ["app/**/*.{ts,tsx}"],
    ignores: ["app/lib/zod.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { paths: [{ name: "zod", message: 'Import { z } from "~/lib/zod" (it configures zod for the CSP).' }] },
      ],
    },
  },
  {
    // Short functions (issue 37 item 7): each one a named step that reads top to bottom. A function
    // counts its code lines (not blank lines or comments), inner functions included; a component
    // (.tsx) may hold its markup in 150. No exceptions: split the function. Tests are not the app's
    // functions: a `describe` holds its cases.
    files: ["app/**/*.ts", "server/**/*.ts", "db/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: { "max-lines-per-function": ["error", { max: 80, skipBlankLines: true, skipComments: true }] },
  },
  {
    files: ["app/**/*.tsx"],
    ignores: ["**/*.test.tsx"],
    rules: { "max-lines-per-function": ["error", { max: 150, skipBlankLines: true, skipComments: true }] },
  },
  {
    // Playwright's fixtures call their `use` argument: not React's hook.
    files: ["tests/e2e/**"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
);
