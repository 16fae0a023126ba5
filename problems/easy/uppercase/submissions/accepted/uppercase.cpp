#include <cctype>
#include <iostream>
#include <string>

int main() {
    std::string s;
    std::getline(std::cin, s);
    for (char &c : s) c = (char)std::toupper((unsigned char)c);
    std::cout << s << "\n";
}
