// `onnx-run --generate KIND [FILE]` (hidden): writes one of the documents made from the
// command line's definitions (interface_docs.h) to FILE (atomically) or stdout. The
// build runs it to make the man page and completions that `cmake --install` installs.
#include <string>

#include <fmt/core.h>

#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/interface_docs.h"
#include "core/error.h"
#include "core/fail.h"
#include "io/atomic_file.h"

namespace onnxrun::cli {
namespace {

// The document argv asks for. Throws Error(kUsage).
std::string document(int argc, char** argv) {
  const std::string kind = argc >= 2 ? argv[1] : "";
  if (argc > 3) fail(ErrorKind::kUsage, "--generate KIND [FILE] takes one file");
  if (kind == "man") return man_page();
  if (kind == "bash-completion") return bash_completion();
  if (kind == "zsh-completion") return zsh_completion();
  if (kind == "fish-completion") return fish_completion();
  if (kind == "options") return option_list();
  fail(ErrorKind::kUsage, "--generate {}: expected man, bash-completion, zsh-completion, fish-completion or options",
       kind.empty() ? "''" : kind);
}

}  // namespace

int generate_main(int argc, char** argv) {
  const std::string text = document(argc, argv);
  if (argc == 3) write_text_file_now(argv[2], text);
  else fmt::print("{}", text);
  return kExitOk;
}

int generate_check_args(int argc, char** argv) {
  document(argc, argv);
  return kExitOk;
}

}  // namespace onnxrun::cli
