// The page's stylesheet and script (html/report.css, html/report.js), built into the binary
// by CMake (html_assets.cc.in) so that `dmconf report html` needs no file beside it.
#ifndef DMCONF_HARNESS_REPORT_HTML_ASSETS_H_
#define DMCONF_HARNESS_REPORT_HTML_ASSETS_H_

namespace dmconf::html {

extern const char kReportCss[];
extern const char kReportJs[];

}  // namespace dmconf::html

#endif  // DMCONF_HARNESS_REPORT_HTML_ASSETS_H_
