import { describe, expect, it } from "vitest";
import { mailboxKey } from "./mailbox";

describe("mailboxKey", () => {
  it("is the address in lower case", () => {
    expect(mailboxKey("Victim@Example.ORG")).toBe("victim@example.org");
    expect(mailboxKey(" victim@example.org ")).toBe("victim@example.org");
  });

  it("drops a +tag from the local part", () => {
    expect(mailboxKey("victim+1@example.org")).toBe("victim@example.org");
    expect(mailboxKey("Victim+news+2@Example.org")).toBe("victim@example.org");
    // A local part that is only a tag is left as it is.
    expect(mailboxKey("+1@example.org")).toBe("+1@example.org");
  });

  it("keeps dots outside Gmail: they name another mailbox there", () => {
    expect(mailboxKey("jane.doe@example.org")).toBe("jane.doe@example.org");
  });

  it("drops dots at Gmail and reads googlemail.com as gmail.com", () => {
    expect(mailboxKey("Jane.Doe@gmail.com")).toBe("janedoe@gmail.com");
    expect(mailboxKey("j.a.n.e.d.o.e+shop@GoogleMail.com")).toBe("janedoe@gmail.com");
    expect(mailboxKey("janedoe@googlemail.com")).toBe("janedoe@gmail.com");
  });

  it("leaves something that is not an address in lower case", () => {
    expect(mailboxKey("Nobody")).toBe("nobody");
  });
});
