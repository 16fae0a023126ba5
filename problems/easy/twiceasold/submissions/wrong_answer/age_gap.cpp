#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Answers with the age gap f - s, which is the son's age at that moment.
std::string solve(long long f, long long s) {
    return std::to_string(f - s);
}

int main() {
    long long f, s;
    std::cin >> f >> s;
    std::cout << solve(f, s) << "\n";
}
