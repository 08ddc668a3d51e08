"""What the project's Python tests share: a counted check and the closing line
'N passed, N failed' that ctest's log and CI read, with the exit code to match."""
import sys


class Checks:
    def __init__(self, label="FAILED", limit=3000):
        self.passed = self.failed = 0
        self.label, self.limit = label, limit

    def __call__(self, name, ok, detail=""):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print(f"{self.label}: {name}\n  {detail}"[: self.limit])
        return ok

    def finish(self):
        print(f"{self.passed} passed, {self.failed} failed")
        sys.exit(1 if self.failed else 0)
