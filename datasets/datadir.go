package datasets

import (
	"fmt"
	"os"
	"path/filepath"
)

// EnvDataDir is the environment variable naming the data directory when no
// flag is given.
const EnvDataDir = "TOPICMF_DATA"

// LocateDataDir says which data directory applies, without checking that it
// exists: flagValue when non-empty, else $TOPICMF_DATA when set, else the
// per-user default os.UserCacheDir()/topicmf/data. origin says where the
// choice came from ("--data-dir", "TOPICMF_DATA" or "default"), for messages.
// The error is non-nil only when the default is needed and the user cache
// directory cannot be determined.
func LocateDataDir(flagValue string) (dir, origin string, err error) {
	if flagValue != "" {
		return flagValue, "--data-dir", nil
	}
	if env := os.Getenv(EnvDataDir); env != "" {
		return env, EnvDataDir, nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", "", fmt.Errorf("no data directory: none given on the command line, %s unset, and no per-user default: %w", EnvDataDir, err)
	}
	return filepath.Join(cache, "topicmf", "data"), "default", nil
}

// DataDir returns the data directory to read: flagValue when non-empty, else
// $TOPICMF_DATA, else os.UserCacheDir()/topicmf/data. It is an error when
// that directory does not exist (or is not a directory); the message names
// the path and where it came from.
func DataDir(flagValue string) (string, error) {
	dir, origin, err := LocateDataDir(flagValue)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(dir)
	switch {
	case err == nil && fi.IsDir():
		return dir, nil
	case err == nil:
		return "", fmt.Errorf("data directory %s (from %s) is not a directory", dir, origin)
	case os.IsNotExist(err):
		if origin == "default" {
			return "", fmt.Errorf("no data directory: none given on the command line, %s unset, and the default %s does not exist (run \"topicmf data fetch\" or point %s at the data)", EnvDataDir, dir, EnvDataDir)
		}
		return "", fmt.Errorf("data directory %s (from %s) does not exist", dir, origin)
	default:
		return "", fmt.Errorf("data directory %s (from %s): %w", dir, origin, err)
	}
}
