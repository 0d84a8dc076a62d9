// The page the build assembled from web/ (src/html/page.h): the data element holds the document
// whatever its strings contain, the sections the contract names are there, and no web address.
#include "html/page.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

namespace tasklens::html {
namespace {

const std::string kOpen = "<script type=\"application/json\" id=\"tasklens-data\">";

// The text of the data element: from its opening tag to the first "</script" after it, as an
// HTML parser reads it.
std::string data_text(const std::string& page) {
  size_t begin = page.find(kOpen);
  if (begin == std::string::npos) return "";
  begin += kOpen.size();
  size_t end = page.find("</script", begin);
  return end == std::string::npos ? "" : page.substr(begin, end - begin);
}

TEST(HtmlPageTemplate, DataWithMarkupInItsStringsParsesBackEqual) {
  nlohmann::json doc = {
      {"run",
       {{"program", "a</script><script>alert(1)</script>"},
        {"args", {"<!--", "-->", "</SCRIPT >", "x<y", "__TASKLENS_DATA__"}}}},
      {"numbers", {0, 1.5, -3, 18446744073709551615u}},
      {"unicode", "\u00e9\u2028\u2029"},
  };
  std::string page = render_page(doc);
  std::string text = data_text(page);
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.find('<'), std::string::npos) << text;
  nlohmann::json back = nlohmann::json::parse(text, nullptr, false);
  ASSERT_FALSE(back.is_discarded()) << text;
  EXPECT_EQ(back, doc);
  // The data element is the only one: the rest of the page follows it unchanged.
  EXPECT_EQ(page.find(kOpen, page.find(kOpen) + 1), std::string::npos);
  EXPECT_NE(page.find("</html>", page.find(kOpen)), std::string::npos);
}

TEST(HtmlPageTemplate, SectionsOfTheContractAndNoWebAddress) {
  std::string page = render_page(nlohmann::json::object());
  for (const char* id :
       {"summary", "breakdown", "overheads", "constructs", "profile", "graph", "timeline"}) {
    EXPECT_NE(page.find(std::string("<section id=\"") + id + "\""), std::string::npos) << id;
  }
  EXPECT_NE(page.find("data-view-start=\"0\" data-view-end=\"0\""), std::string::npos);
  EXPECT_EQ(page.find("http://"), std::string::npos);
  EXPECT_EQ(page.find("https://"), std::string::npos);
  EXPECT_EQ(page.find("/*tasklens:"), std::string::npos);  // every slot of the template filled
  EXPECT_EQ(data_text(page), "{}");
}

}  // namespace
}  // namespace tasklens::html
