#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(const std::string &s) {
    size_t space = s.find(' ');
    std::string u = s.substr(0, space), v = s.substr(space + 1), out;
    for (size_t i = 0; i < u.size() || i < v.size(); i++) {
        if (i < u.size()) out += u[i];
        if (i < v.size()) out += v[i];
    }
    return out;
}

int main() {
    std::string s;
    std::getline(std::cin, s);
    std::cout << solve(s) << "\n";
}
