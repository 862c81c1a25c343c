import { tool } from "toolwright";

/** 50 decorated tools for the start-up benchmark (W3): the same trivial sum 50 times (`add`, `add1` … `add49`), as an app with many tools has them. */
export class BenchTools {
  /**
   * Add two numbers (tool 0).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 1).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add1(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 2).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add2(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 3).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add3(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 4).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add4(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 5).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add5(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 6).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add6(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 7).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add7(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 8).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add8(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 9).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add9(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 10).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add10(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 11).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add11(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 12).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add12(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 13).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add13(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 14).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add14(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 15).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add15(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 16).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add16(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 17).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add17(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 18).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add18(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 19).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add19(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 20).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add20(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 21).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add21(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 22).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add22(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 23).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add23(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 24).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add24(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 25).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add25(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 26).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add26(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 27).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add27(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 28).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add28(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 29).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add29(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 30).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add30(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 31).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add31(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 32).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add32(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 33).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add33(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 34).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add34(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 35).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add35(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 36).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add36(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 37).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add37(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 38).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add38(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 39).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add39(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 40).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add40(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 41).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add41(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 42).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add42(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 43).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add43(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 44).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add44(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 45).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add45(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 46).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add46(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 47).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add47(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 48).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add48(a: number, b: number): number {
    return a + b;
  }

  /**
   * Add two numbers (tool 49).
   * @param a The first number.
   * @param b The second number.
   */
  @tool()
  add49(a: number, b: number): number {
    return a + b;
  }
}
