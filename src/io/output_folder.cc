#include "io/output_folder.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

#include "core/error.h"
#include "core/fail.h"
#include "io/temp_names.h"

namespace fs = std::filesystem;

namespace onnxrun {

namespace {

int open_folder(const std::string& dir) {
  // The folder itself is the user's to name: a symlink to a folder is followed, once.
  return ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

}  // namespace

std::shared_ptr<const OutputFolder> OutputFolder::make(const std::string& dir, std::vector<std::string>* made) {
  // The folders that are not there yet, outermost first.
  std::vector<fs::path> missing;
  std::error_code ec;
  fs::path outer = fs::path(dir).lexically_normal();
  if (outer.filename().empty()) outer = outer.parent_path();  // "out/"
  for (fs::path p = outer; !p.empty() && !fs::exists(fs::symlink_status(p, ec)); p = p.parent_path()) {
    missing.insert(missing.begin(), p);
    if (p == p.parent_path()) break;
  }
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir))
    fail(ErrorKind::kIo, "cannot create output folder {}: {}", dir, ec ? ec.message() : "not a folder");
  if (made)
    for (const fs::path& p : missing) made->push_back(p.string());
  const int fd = open_folder(dir);
  if (fd < 0) fail(ErrorKind::kIo, "cannot open output folder {}: {}", dir, std::strerror(errno));
  std::shared_ptr<const OutputFolder> folder(new OutputFolder(fd, dir));
  // Every format and every later run cleans alike: what a killed run left here goes
  // before anything is written, whatever file it was for.
  remove_stale_temporaries(folder->fd());
  return folder;
}

std::shared_ptr<const OutputFolder> OutputFolder::open_existing(const std::string& dir) {
  const int fd = open_folder(dir);
  if (fd < 0) fail(ErrorKind::kIo, "cannot open folder {}: {}", dir.empty() ? "." : dir, std::strerror(errno));
  return std::shared_ptr<const OutputFolder>(new OutputFolder(fd, dir));
}

OutputFolder::~OutputFolder() { ::close(fd_); }

std::string OutputFolder::path_of(const std::string& name) const {
  return path_.empty() ? name : (fs::path(path_) / name).string();
}

}  // namespace onnxrun
