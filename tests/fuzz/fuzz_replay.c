/*
 * Runs the fuzz target's entry point over files (or every file of a
 * folder): the seed corpus as a regression test in every build, and the
 * way to reproduce a crash without libFuzzer.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf;
    long len;

    if (!f) {
        perror(path);
        return 1;
    }
    fseek(f, 0, SEEK_END);
    len = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc(len > 0 ? (size_t)len : 1);
    if (!buf || fread(buf, 1, (size_t)len, f) != (size_t)len) {
        fprintf(stderr, "%s: read failed\n", path);
        fclose(f);
        free(buf);
        return 1;
    }
    fclose(f);
    LLVMFuzzerTestOneInput(buf, (size_t)len);
    free(buf);
    printf("ok %s\n", path);
    return 0;
}

int main(int argc, char **argv)
{
    int rc = 0;

    if (argc < 2 || !strcmp(argv[1], "--help")) {
        printf("usage: %s FILE|DIR...\nRuns the engine fuzz target on each "
               "input (a crash or oracle failure aborts).\n", argv[0]);
        return argc < 2 ? 2 : 0;
    }
    for (int i = 1; i < argc; i++) {
        DIR *d = opendir(argv[i]);
        if (!d) {
            rc |= run_file(argv[i]);
            continue;
        }
        for (struct dirent *e; (e = readdir(d));) {
            char path[4096];
            if (e->d_name[0] == '.') {
                continue;
            }
            snprintf(path, sizeof(path), "%s/%s", argv[i], e->d_name);
            rc |= run_file(path);
        }
        closedir(d);
    }
    return rc;
}
