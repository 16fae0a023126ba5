// Stops one letter early: the first letter is never printed.
#include <iostream>
#include <string>

int main() {
    std::string s;
    std::cin >> s;
    for (int i = (int)s.size() - 1; i > 0; i--) std::cout << s[i];
    std::cout << "\n";
}
