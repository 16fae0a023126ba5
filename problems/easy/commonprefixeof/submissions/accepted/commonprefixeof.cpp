#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(const std::string &s) {
    size_t space = s.find(' ');
    std::string u = s.substr(0, space), v = s.substr(space + 1);
    size_t k = 0;
    while (k < u.size() && k < v.size() && u[k] == v[k]) k++;
    return std::to_string(k);
}

int main() {
    std::string s;
    while (std::getline(std::cin, s)) std::cout << solve(s) << "\n";
}
