#include "io/output_folder.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
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
  // Made one component at a time, as written: each folder this call makes is one it
  // records, those that `..` steps back out of (`-o a/b/../c` makes a/b) included, and
  // none that stood there already or that another process made meanwhile.
  std::vector<std::string> made_here;
  std::error_code ec;
  fs::path so_far;
  int err = 0;
  for (const fs::path& part : fs::path(dir)) {
    so_far /= part;
    if (part.empty() || part == "." || part == ".." || part == part.root_path()) continue;
    if (fs::exists(fs::symlink_status(so_far, ec))) continue;  // a folder, or what fails below
    if (::mkdir(so_far.c_str(), 0777) == 0) made_here.push_back(so_far.string());
    else if (errno != EEXIST) {
      err = errno;
      break;
    }
  }
  if (err || !fs::is_directory(dir, ec)) {
    // What this call made goes again, innermost first: a failed make leaves nothing.
    for (auto it = made_here.rbegin(); it != made_here.rend(); ++it) ::rmdir(it->c_str());
    fail(ErrorKind::kIo, "cannot create output folder {}: {}", dir,
         err                                       ? std::strerror(err)
         : fs::exists(fs::symlink_status(dir, ec)) ? "not a folder"
                                                   : std::strerror(ENOENT));
  }
  if (made) made->insert(made->end(), made_here.begin(), made_here.end());
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

bool same_folder(const std::string& a, const std::string& b) {
  std::error_code ec;
  const fs::path pa = a.empty() ? "." : a, pb = b.empty() ? "." : b;
  if (fs::is_directory(pa, ec) && fs::is_directory(pb, ec)) return fs::equivalent(pa, pb, ec);
  auto resolved = [&](const fs::path& p) {
    fs::path r = fs::weakly_canonical(fs::absolute(p, ec), ec).lexically_normal();
    return r.filename().empty() ? r.parent_path() : r;  // "out/" is "out"
  };
  return resolved(pa) == resolved(pb);
}

OutputFolder::~OutputFolder() { ::close(fd_); }

std::string OutputFolder::path_of(const std::string& name) const {
  return path_.empty() ? name : (fs::path(path_) / name).string();
}

}  // namespace onnxrun
