// Whether a string is well-formed Unicode: no half of a UTF-16 surrogate pair alone. Such a string has no
// UTF-8 form, so every codec that writes UTF-8 (the payload formats, protobuf strings, RFC 5424 text)
// refuses it. One check for all of them: String.prototype.isWellFormed (ES2024; V8 11.1, so Node 20 on).

/** True when `text` has no lone surrogate, so UTF-8 keeps every character. */
export function isWellFormed(text: string): boolean {
  // The project's TypeScript lib is ES2023, which does not declare the method yet.
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}
