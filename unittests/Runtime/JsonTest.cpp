//===- JsonTest.cpp - Tests of the runtime's JSON reader and writer -------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Runtime/Json.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace tessel::runtime;

namespace {

/// The error of parsing `text`, or "" when it parses.
std::string parseError(const std::string &text) {
  json::Value value;
  std::string error;
  if (json::parse(text, value, error))
    return "";
  return error;
}

TEST(JsonTest, ParsesNestedValues) {
  json::Value value;
  std::string error;
  ASSERT_TRUE(
      json::parse(R"( {"a": [1, -2.5, true, null, "x\n\u00e9\ud83d\ude00"],
                               "b": {"c": 9007199254740993}} )",
                  value, error))
      << error;
  ASSERT_TRUE(value.isObject());
  const json::Value *a = value.get("a");
  ASSERT_TRUE(a && a->isArray());
  ASSERT_EQ(a->getArray().size(), 5u);
  EXPECT_TRUE(a->getArray()[0].isInteger());
  EXPECT_EQ(a->getArray()[0].getInteger(), 1);
  EXPECT_FALSE(a->getArray()[1].isInteger());
  EXPECT_EQ(a->getArray()[1].getNumber(), -2.5);
  EXPECT_TRUE(a->getArray()[2].getBool());
  EXPECT_TRUE(a->getArray()[3].isNull());
  EXPECT_EQ(a->getArray()[4].getString(), "x\n\xc3\xa9\xf0\x9f\x98\x80");
  // Integers keep all 64 bits (a double would round this one).
  EXPECT_EQ(value.get("b")->get("c")->getInteger(), 9007199254740993);
  EXPECT_EQ(value.get("missing"), nullptr);
}

TEST(JsonTest, IntegersOutsideInt64AreOnlyNumbers) {
  json::Value value;
  std::string error;
  ASSERT_TRUE(json::parse("99999999999999999999", value, error));
  EXPECT_TRUE(value.isNumber());
  EXPECT_FALSE(value.isInteger());
  ASSERT_TRUE(json::parse("1e3", value, error));
  EXPECT_FALSE(value.isInteger());
  EXPECT_EQ(value.getNumber(), 1000);
}

TEST(JsonTest, ErrorsGiveLineAndColumn) {
  EXPECT_EQ(parseError("{\"a\": 1,\n \"b\" 2}"),
            "line 2, column 6: expected ':' after object key");
  EXPECT_EQ(parseError("[1, 2"),
            "line 1, column 6: expected ',' or ']' in array");
  EXPECT_EQ(parseError("{\"a\": 1} x"),
            "line 1, column 10: unexpected text after the JSON value");
  EXPECT_EQ(parseError("{\"a\": 1, \"a\": 2}"),
            "line 1, column 10: duplicate key 'a'");
  EXPECT_EQ(parseError("\"abc"), "line 1, column 5: unterminated string");
  EXPECT_EQ(parseError("01"),
            "line 1, column 2: unexpected text after the JSON value");
  EXPECT_EQ(parseError("-"), "line 1, column 2: invalid number");
  EXPECT_EQ(parseError("tru"), "line 1, column 1: invalid literal");
  EXPECT_EQ(parseError(""),
            "line 1, column 1: unexpected end of input, expected a value");
  EXPECT_EQ(parseError("\"\\ud800\""),
            "line 1, column 8: unpaired surrogate in \\u escape");
  EXPECT_EQ(parseError(std::string(300, '[')),
            "line 1, column 258: nesting deeper than 256");
}

TEST(JsonTest, WritesOneLineObjects) {
  std::string line = json::ObjectWriter()
                         .addString("s", "a\"b\\c\n\x01")
                         .addInt("i", -3)
                         .addNumber("d", 0.1)
                         .addNumber("nan", std::nan(""))
                         .addBool("b", false)
                         .addRaw("o", "{\"x\":1}")
                         .str();
  EXPECT_EQ(line, "{\"s\":\"a\\\"b\\\\c\\n\\u0001\",\"i\":-3,\"d\":0.1,"
                  "\"nan\":null,\"b\":false,\"o\":{\"x\":1}}");
  EXPECT_EQ(json::ObjectWriter().str(), "{}");
}

TEST(JsonTest, NumbersRoundTrip) {
  for (double value : {0.0, 1.0, -2.5, 1e-7, 123456.789, 1.0 / 3, 1e300}) {
    json::Value parsed;
    std::string error;
    ASSERT_TRUE(json::parse(json::formatNumber(value), parsed, error));
    EXPECT_EQ(parsed.getNumber(), value);
  }
  EXPECT_EQ(json::formatNumber(INFINITY), "null");
}

} // namespace
